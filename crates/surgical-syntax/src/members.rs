//! Windows inside a block, for languages whose code is indented under a namespace or a class (C#,
//! Java), where a change has no top-level line near it: the window runs between lines at the
//! block body's indentation (after a blank line, or the block's first or last line), and is
//! parsed in the context of its enclosing blocks, each the lines of its header (from the
//! declaration's first line to the `{` that opens it) and its closing `}`. The parser reads only
//! those stretches of the text (tree-sitter's included ranges), so its tree and problems are in
//! the text's own positions.
//!
//! A block that continues a statement (`} catch (E e) {`, `} else {`, Allman's `}` / `else` /
//! `{`) is read after the statement's first link (`try {`, `if (x) {`), a switch section's
//! statements after the switch's header and the section's label, and a window takes whole the
//! conditional directive groups (`#if` ... `#endif`) it would cut.
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
    /// For a header that continues a statement (`} else {`, `} catch (E e) {`, Allman's `}` /
    /// `else` / `{`), the statement's first link: from its first line to just past its `{` (the
    /// links between and their bodies are left out: `try {` `} catch (E e) {` reads as a whole).
    /// The header then starts at the `}` closing that link's body.
    leads: Vec<Option<Range<usize>>>,
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
        let mut out = self.before();
        out.push(self.window.clone());
        out.extend(self.closers.iter().cloned());
        out
    }

    /// The stretches before the window: each header, after its lead if it has one.
    pub fn before(&self) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        for (h, lead) in self.headers.iter().zip(&self.leads) {
            out.extend(lead.clone());
            out.push(h.clone());
        }
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
    if t.starts_with(b"#") {
        return false;
    }
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
    let mut start = start?;
    // Its end: the next line starting an item at that indentation, or the block's last line
    // (a closer indented less); every line between indented no less.
    let mut end = item_end(
        text,
        next_line(text, line_start(text, b.min(text.len().saturating_sub(1))))?,
        level,
    )?;
    // A conditional directive group (`#if` ... `#endif`) is read as one piece of syntax: one
    // split by a boundary makes the window read wrong. The window takes the items it needs to
    // hold the groups it cuts whole (none when the block's first or last line cuts one).
    for _ in 0..REACH {
        let (endifs, ifs) = unmatched_directives(text, start..end);
        if endifs == 0 && ifs == 0 {
            break;
        }
        if endifs > 0 {
            start = item_above(text, start, level)?;
        }
        if ifs > 0 {
            if indent(text, end).is_none_or(|i| i < level) {
                return None;
            }
            end = item_end(text, next_line(text, end)?, level)?;
        }
    }
    // Every line of the window indented at least as its items (the changed lines too).
    let mut l = start;
    while l < end {
        if !ignorable(text, l) && indent(text, l)? < level {
            return None;
        }
        l = next_line(text, l)?;
    }
    let (headers, leads, indents) = headers(text, start, level)?;
    let closers = closers(text, end, &indents)?;
    Some(Nested {
        headers,
        leads,
        window: start..end,
        closers,
        level,
        indents,
    })
}

/// The first line from `from` on that ends a window of items at `level`: a line starting an item
/// there, or the block's last line (a closer indented less).
fn item_end(text: &[u8], from: usize, level: usize) -> Option<usize> {
    let mut l = from;
    for _ in 0..REACH {
        if !ignorable(text, l) {
            let i = indent(text, l)?;
            if i < level {
                return (line(text, l).trim_ascii_start().starts_with(b"}") || is_label(text, l)).then_some(l);
            }
            if starts_item(text, l, level) {
                return Some(l);
            }
        }
        l = next_line(text, l)?;
    }
    None
}

/// The nearest line before `start` that starts an item at `level`, every line between indented
/// no less; `None` past the block's first line.
fn item_above(text: &[u8], start: usize, level: usize) -> Option<usize> {
    let mut l = prev_line(text, start)?;
    for _ in 0..REACH {
        if !ignorable(text, l) {
            let i = indent(text, l)?;
            if i < level {
                return None;
            }
            if i == level && starts_item(text, l, level) {
                return Some(l);
            }
        } else if opens_group(text, l) {
            // A group opening after a blank line, its first item right below it.
            return Some(l);
        }
        l = prev_line(text, l)?;
    }
    None
}

/// Whether the line starting at `l` opens a conditional directive group (`#if`) after a blank
/// line: a window may start or end there, as at an item.
fn opens_group(text: &[u8], l: usize) -> bool {
    line(text, l).trim_ascii_start().starts_with(b"#if") && prev_line(text, l).is_some_and(|p| blank(text, p))
}

/// The conditional directive lines of `range` (whole lines of `text`) left unmatched in it: how
/// many `#endif` close a group opened before it, and how many `#if` open one closed after it.
fn unmatched_directives(text: &[u8], range: Range<usize>) -> (usize, usize) {
    let (mut depth, mut lowest) = (0isize, 0isize);
    let mut l = range.start;
    while l < range.end {
        let t = line(text, l).trim_ascii_start();
        let word =
            |w: &[u8]| t.starts_with(w) && !t.get(w.len()).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if word(b"#if") {
            depth += 1;
        } else if word(b"#endif") {
            depth -= 1;
            lowest = lowest.min(depth);
        }
        match next_line(text, l) {
            Some(n) => l = n,
            None => break,
        }
    }
    ((-lowest) as usize, (depth - lowest) as usize)
}

/// The headers of the blocks enclosing the line at `start` (indented `level`), outermost first,
/// and each block's indentation.
#[allow(clippy::type_complexity)]
fn headers(
    text: &[u8],
    start: usize,
    level: usize,
) -> Option<(Vec<Range<usize>>, Vec<Option<Range<usize>>>, Vec<usize>)> {
    let mut headers = Vec::new();
    let mut leads = Vec::new();
    let mut indents = Vec::new();
    let (mut at, mut level) = (start, level);
    while level > 0 {
        // The nearest line before indented less: the block's header (or its `{` line).
        let mut o = prev_line(text, at)?;
        while ignorable(text, o) || indent(text, o)? >= level {
            o = prev_line(text, o)?;
        }
        // A switch section's label (`case X:`, `default:`): its statements are a block without
        // braces. It is read after the switch's header, as the header of the switch's block.
        if is_label(text, o) {
            let mut sw = prev_line(text, o)?;
            let label = indent(text, o)?;
            while ignorable(text, sw) || indent(text, sw)? >= label {
                sw = prev_line(text, sw)?;
            }
            let (first, brace, block) = declaration(text, sw, o)?;
            headers.push(o..o + line(text, o).len());
            leads.push(Some(first..brace));
            indents.push(block);
            at = first;
            level = block.min(indent(text, first)?);
            continue;
        }
        // The line whose `{` opens the block (that one, or a continuation of it indented
        // deeper), and the declaration's first line.
        let (first, brace, block) = declaration(text, o, at)?;
        // A header continuing a statement (`} else {`; Allman's `}` then `catch (E e)`) is read
        // after the statement's first link, from the `}` that closes that link's body.
        let t = line(text, first).trim_ascii_start();
        if t.starts_with(b"}") || continues_statement(t) {
            let close = if t.starts_with(b"}") {
                first
            } else {
                let mut p = prev_line(text, first)?;
                while ignorable(text, p) {
                    p = prev_line(text, p)?;
                }
                if indent(text, p)? != block || !line(text, p).trim_ascii_start().starts_with(b"}") {
                    return None;
                }
                p
            };
            // The statement's first line: up over the links (lines at the block's indentation
            // starting with `}`, `{`, `else`, `catch`, `finally`) and their bodies.
            let mut head = prev_line(text, close)?;
            loop {
                if !ignorable(text, head) {
                    let i = indent(text, head)?;
                    if i < block {
                        return None;
                    }
                    let t = line(text, head).trim_ascii_start();
                    if i == block && !(t.starts_with(b"}") || t.starts_with(b"{") || continues_statement(t)) {
                        break;
                    }
                }
                head = prev_line(text, head)?;
            }
            let mut open = head;
            while !opens(text, open) {
                open = next_line(text, open).filter(|&n| n < close)?;
            }
            let head_brace = open + memchr::memrchr(b'{', line(text, open))? + 1;
            let closing = close + line(text, close).iter().position(|&b| b == b'}')?;
            headers.push(closing..brace);
            leads.push(Some(head..head_brace));
            indents.push(block);
            at = head;
            level = block.min(indent(text, head)?);
            continue;
        }
        headers.push(first..brace);
        leads.push(None);
        indents.push(block);
        at = first;
        level = block.min(indent(text, first)?);
    }
    headers.reverse();
    leads.reverse();
    indents.reverse();
    Some((headers, leads, indents))
}

/// Whether the line starting at `start` is a switch section's label: `case ...:` or `default:`.
fn is_label(text: &[u8], start: usize) -> bool {
    let t = line(text, start).trim_ascii_start();
    let word = |w: &[u8]| t.starts_with(w) && !t.get(w.len()).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    (word(b"case") || word(b"default")) && code(text, start).ends_with(b":")
}

/// The declaration whose header's line `o` is (the block's header, or its `{` line), its `{`
/// before `limit`: its first line (back over the lines that end no statement or block:
/// attributes, doc comments, a signature over lines), the end of its `{`, and the block's
/// indentation.
fn declaration(text: &[u8], o: usize, limit: usize) -> Option<(usize, usize, usize)> {
    let block = indent(text, o)?;
    let mut open = o;
    while !opens(text, open) {
        open = next_line(text, open).filter(|&n| n < limit)?;
        if !ignorable(text, open) && indent(text, open)? <= block {
            return None;
        }
    }
    let brace = open + memchr::memrchr(b'{', line(text, open))? + 1;
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
    Some((first, brace, block))
}

/// Whether a line (trimmed) continues a statement whose first link is above it: `else`, `catch`,
/// `finally`.
fn continues_statement(t: &[u8]) -> bool {
    [&b"else"[..], b"catch", b"finally"]
        .iter()
        .any(|w| t.starts_with(w) && !t.get(w.len()).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_'))
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
        let (mut start, mut end) = (n.window.start, n.window.end);
        // Out to lines starting items, and on while a conditional directive group is cut.
        loop {
            let was = (start, end);
            while start > block_first
                && !(up >= lines
                    && (starts_item(text, start, n.level) || opens_group(text, start))
                    && unmatched_directives(text, start..end).0 == 0)
            {
                start = prev_line(text, start)?;
                up += 1;
            }
            while end < block_end
                && !(down >= lines
                    && (starts_item(text, end, n.level) || opens_group(text, end))
                    && unmatched_directives(text, start..end).1 == 0)
                && (ignorable(text, end) || indent(text, end).is_none_or(|i| i >= n.level))
            {
                end = next_line(text, end).unwrap_or(text.len());
                down += 1;
            }
            if (start, end) == was || unmatched_directives(text, start..end) == (0, 0) {
                break;
            }
        }
        n.window = start..end;
        if (up >= lines && down >= lines) || n.headers.is_empty() {
            break;
        }
        let header = n.headers.pop()?;
        let first = n.leads.pop()?.map_or(header.start, |lead| lead.start);
        let closer = n.closers.remove(0);
        n.indents.pop();
        n.window = first..next_line(text, line_start(text, closer.start)).unwrap_or(text.len());
        n.level = indent(text, first)?;
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
    fn a_block_continuing_a_statement_is_read_after_its_first_link() {
        // K&R: `} catch (E e) {` after `try {`, the try's body left out.
        let text = b"class C {\n  void m() {\n    try {\n      a();\n    } catch (E e) {\n      b();\n      c();\n    }\n  }\n}\n";
        let s = std::str::from_utf8(text).unwrap();
        let at = s.find("c()").unwrap();
        let n = window(text, at, at + 1).unwrap();
        let before: Vec<&str> = n.before().iter().map(|r| &s[r.clone()]).collect();
        assert_eq!(before, ["class C {", "  void m() {", "    try {", "} catch (E e) {"]);
        assert_eq!(&s[n.window.clone()], "      b();\n      c();\n");
        // Allman: `}` / `else` / `{` after `if (x)` / `{`, and a link between left out.
        let text = b"namespace N\n{\n    class C\n    {\n        void M()\n        {\n            if (x)\n            {\n                a();\n            }\n            else if (y)\n            {\n                b();\n            }\n            else\n            {\n                c();\n            }\n        }\n    }\n}\n";
        let s = std::str::from_utf8(text).unwrap();
        let at = s.find("c()").unwrap();
        let n = window(text, at, at + 1).unwrap();
        let before: Vec<&str> = n.before().iter().map(|r| &s[r.clone()]).collect();
        assert_eq!(before[3], "            if (x)\n            {");
        assert_eq!(before[4], "}\n            else\n            {");
        // Widened past the block: the statement whole, from its first link.
        let w = widened(text, &n, 3).unwrap();
        assert!(w.window.start <= s.find("if (x)").unwrap() && w.window.end > s.find("c()").unwrap());
        assert!(w.window.start == 0 || text[w.window.start - 1] == b'\n');
    }

    #[test]
    fn a_switch_section_is_read_after_the_switch_header() {
        let text = b"class C\n{\n    int M()\n    {\n        switch (t)\n        {\n            case 1:\n                a();\n\n                b();\n                break;\n            default:\n                return 0;\n        }\n    }\n}\n";
        let s = std::str::from_utf8(text).unwrap();
        let at = s.find("b()").unwrap();
        let n = window(text, at, at + 1).unwrap();
        let before: Vec<&str> = n.before().iter().map(|r| &s[r.clone()]).collect();
        assert_eq!(before[2], "        switch (t)\n        {");
        assert_eq!(before[3], "            case 1:");
        // The section's items, up to the next label.
        assert_eq!(&s[n.window.clone()], "                b();\n                break;\n");
        assert_eq!(n.closers.len(), 3);
        let w = widened(text, &n, 3).unwrap();
        assert!(w.window.start <= s.find("switch").unwrap() && w.window.end > s.find("return 0").unwrap());
    }

    #[test]
    fn a_window_holds_the_directive_groups_it_cuts_whole() {
        let text = b"class C\n{\n    int a;\n\n#if X\n    int b;\n\n    int c;\n#endif\n\n    int d;\n}\n";
        let s = std::str::from_utf8(text).unwrap();
        let at = s.find("int c").unwrap();
        let n = window(text, at, at + 1).unwrap();
        assert_eq!(&s[n.window.clone()], "#if X\n    int b;\n\n    int c;\n#endif\n\n");
        assert_eq!(unmatched_directives(text, n.window.clone()), (0, 0));
        assert_eq!(unmatched_directives(text, n.window.start + 6..n.window.end), (1, 0));
        // Its start taken up over the `#if`: a directive line starts no item.
        let w = widened(text, &n, 1).unwrap();
        assert_eq!(unmatched_directives(text, w.window.clone()), (0, 0));
    }

    #[test]
    fn top_level_changes_have_no_nested_window() {
        let text = b"class A {\n}\n\nclass B {\n}\n";
        assert!(window(text, 13, 14).is_none());
    }
}
