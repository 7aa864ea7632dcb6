//! Where an introduced problem really is. A parser that meets a dropped closing bracket reads on
//! and blames an outer opener (a class's `{`, far above the edit), and one that meets a string left
//! open reads the rest of the line, and the lines after, as the string: its errors show up where
//! the string ends, lines below. Indentation and the edit's place say better, as a person reading
//! the code would: these rules run only once the edit is known to have broken something.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use crate::problem::{Finding, Problem};
use crate::tokens::{closes, role, Role};
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
        let defined = function_macros(text);
        found.into_iter().filter(|f| !near_a_macro(text, &defined, f)).collect()
    } else {
        found
    };
    let found = if language == Language::CSharp {
        let around = written_directive_groups(tree, text, focus);
        found
            .into_iter()
            .filter(|f| {
                let l = line_of(text, f.at.start);
                !around.iter().any(|r| r.contains(&l))
            })
            .collect()
    } else {
        found
    };
    if found.is_empty() || language == Language::Markdown {
        return found;
    }
    let first_problem = found.iter().map(|f| f.at.start).min().unwrap_or(0);
    if language == Language::Yaml {
        // A parser meeting a key indented out of its mapping blames the line above it.
        return match yaml_indented_out(text, focus).filter(|bad| first_problem < bad.at.start) {
            Some(bad) => vec![bad],
            None => found,
        };
    }
    if language == Language::Html {
        // A start tag the edit left without its `>`: the parser reads on as attributes, and
        // blames a quote or a `>` lines below.
        if let Some(tag) =
            tag_left_open(text, focus).filter(|tag| first_problem >= line_start(text, line_of(text, tag.at.start)))
        {
            return vec![tag];
        }
        // Else only quotes: HTML's elements need no closing tag.
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
    if let Some(bracket) = unbalanced_line(language, tree, text, focus)
        .or_else(|| uneven_block(language, tree, text, focus))
        .or_else(|| bracket_by_indentation(language, tree, text, focus))
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

/// A line the edit wrote that starts a tag (`<name`) and ends without its `>`, the tag's text
/// followed by a line that does not go on with attributes (`name=` or `>`): the `>` is missing at
/// the line's end.
fn tag_left_open(text: &[u8], focus: &[Range<usize>]) -> Option<Finding> {
    for line in written_lines(text, focus) {
        let (s, e) = (line_start(text, line), line_start(text, line + 1));
        let bytes = &text[s..e.max(s)];
        let Some(open) = bytes
            .windows(2)
            .rposition(|w| w[0] == b'<' && w[1].is_ascii_alphabetic())
        else {
            continue;
        };
        if bytes[open..].contains(&b'>') {
            continue;
        }
        // The next line goes on with the tag's attributes: a tag over several lines.
        let next = text[e.min(text.len())..]
            .split(|&b| b == b'\n')
            .map(|l| l.trim_ascii())
            .find(|l| !l.is_empty())
            .unwrap_or(b"");
        let attribute = next
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b':'))
            .is_some_and(|p| p > 0 && next[p..].trim_ascii_start().starts_with(b"="));
        if attribute || next.starts_with(b">") || next.starts_with(b"/>") {
            continue;
        }
        let end = s + bytes.trim_ascii_end().len();
        return Some(Finding {
            at: end..end,
            problem: Problem::Missing { token: ">".into() },
            hint: None,
        });
    }
    None
}

/// YAML: a line the edit wrote indented deeper than the line before it (comments and blank lines
/// passed over) when that line opens no block (does not end with `:`, `|` or `>`, is not a list
/// item going on two columns in, nor inside a flow collection).
fn yaml_indented_out(text: &[u8], focus: &[Range<usize>]) -> Option<Finding> {
    let lines = indents(text);
    for line in written_lines(text, focus) {
        let Some(indent) = lines.get(line).and_then(|l| l.1) else {
            continue;
        };
        let content = |l: usize| {
            let s = lines[l].0;
            let e = line_start(text, l + 1);
            text[s..e.max(s)].trim_ascii()
        };
        if content(line).starts_with(b"#") {
            continue;
        }
        let Some(prev) = (0..line)
            .rev()
            .find(|&l| lines[l].1.is_some() && !content(l).starts_with(b"#"))
        else {
            continue;
        };
        let prev_indent = lines[prev].1.unwrap_or(0);
        let p = content(prev);
        let opens = p.ends_with(b":") || p.ends_with(b"|") || p.ends_with(b">") || p.ends_with(b"-");
        let flow = p.contains(&b'[') || p.contains(&b'{') || p.ends_with(b",");
        let item = p.starts_with(b"- ") && indent == prev_indent + 2;
        // A key only (`name: value` or `name:`): a scalar going on over lines is not.
        let key = content(line)
            .iter()
            .position(|&b| b == b':')
            .is_some_and(|c| !content(line)[..c].contains(&b' ') || content(line).starts_with(b"- "));
        if indent > prev_indent && !opens && !flow && !item && key {
            let at = lines[line].0 + indent;
            return Some(Finding {
                at: at..line_start(text, line + 1).saturating_sub(1).max(at),
                problem: Problem::BadIndentation,
                hint: None,
            });
        }
    }
    None
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
/// The lines the edit wrote, range by range (a line two ranges touch is read for each).
fn written_lines<'a>(text: &'a [u8], focus: &'a [Range<usize>]) -> impl Iterator<Item = usize> + 'a {
    focus
        .iter()
        .flat_map(move |f| line_of(text, f.start)..=line_of(text, f.end))
}

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

/// How many lines around a conditional directive group the edit wrote its problems are the
/// preprocessor's (C#).
const DIRECTIVE_REACH: usize = 10;

/// C#: the lines (zero-based, each group widened by [`DIRECTIVE_REACH`]) of the `#if` ... `#endif`
/// groups of which the edit wrote a directive line (`#if`, `#elif`, `#else`, `#endif`) and which
/// the grammar misreads. tree-sitter-c-sharp reads a directive only where its grammar places one
/// (among statements, members, ...): a group around switch sections (`#if X` / `case 'c':` /
/// `#endif`) or inside a class's header (`class A` / `#if X` / `: IB` / `#endif`), which the
/// compiler takes, it reads as broken code. Such a group holds a switch label at a line's start,
/// or one of its directives is read as a stray token in a stretch the parser could not read. Problems there are not
/// reported (a real break inside such a group with them).
fn written_directive_groups(tree: &Tree, text: &[u8], focus: &[Range<usize>]) -> Vec<std::ops::RangeInclusive<usize>> {
    let written = |l: usize| {
        focus
            .iter()
            .any(|f| line_of(text, f.start) <= l && l <= line_of(text, f.end))
    };
    let mut out = Vec::new();
    // Open groups: (the `#if` line, whether the edit wrote one of the group's directives).
    let mut open: Vec<(usize, bool)> = Vec::new();
    for at in memchr::memchr_iter(b'#', text) {
        let start = text[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        if !text[start..at].iter().all(|&b| b == b' ' || b == b'\t') {
            continue;
        }
        let word: &[u8] = &text[at + 1..];
        let word = &word[..word.iter().take_while(|b| b.is_ascii_alphabetic()).count()];
        let line = line_of(text, at);
        match word {
            b"if" => open.push((line, written(line))),
            b"elif" | b"else" => {
                if let Some(last) = open.last_mut() {
                    last.1 |= written(line);
                }
            }
            b"endif" => {
                if let Some((first, wrote)) = open.pop() {
                    if (wrote || written(line)) && misread_group(tree, text, first, line) {
                        out.push(first.saturating_sub(DIRECTIVE_REACH)..=line + DIRECTIVE_REACH);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether the C# directive group from line `first` (`#if`) to line `last` (`#endif`) is one the
/// grammar misreads: a switch label starts one of its lines, or one of its directives is a token
/// of an ERROR node.
fn misread_group(tree: &Tree, text: &[u8], first: usize, last: usize) -> bool {
    let (from, to) = (line_start(text, first), line_start(text, last + 1));
    let labels = text[from..to.max(from)].split(|&b| b == b'\n').any(|l| {
        let l = &l[l.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
        l.starts_with(b"case ") || l.starts_with(b"default:")
    });
    if labels {
        return true;
    }
    let mut leaves = Vec::new();
    collect_in(tree.root_node(), from..to, &mut leaves);
    // A directive read as a stray token (not one inside a group the parser read, which a break
    // in the group may wrap in an ERROR node whole).
    leaves
        .iter()
        .any(|n| n.kind().starts_with('#') && n.parent().is_some_and(|p| p.is_error()))
}

fn touches(focus: &[Range<usize>], r: &Range<usize>) -> bool {
    focus.iter().any(|f| r.start <= f.end && f.start <= r.end)
}

/// The names of the statement macros `text` defines: function-like ones (`#define name(`) whose
/// body ends with `}` (`if (c) ...; else { ... }`, a block). A call of one stands as a statement
/// without `;` (`test_cond(x)`), which a parser without the preprocessor reads as a missing `;`;
/// a macro whose body is an expression is not one of them (its call still needs its `;`).
fn function_macros(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut lines = text.split(|&b| b == b'\n');
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_ascii_start().strip_prefix(b"#") else {
            continue;
        };
        let Some(rest) = rest.trim_ascii_start().strip_prefix(b"define") else {
            continue;
        };
        let rest = rest.trim_ascii_start();
        let name_len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        // The body's last line: the definition goes on while a line ends with `\`.
        let mut last = line;
        while last.trim_ascii_end().ends_with(b"\\") {
            match lines.next() {
                Some(next) => last = next,
                None => break,
            }
        }
        let mut body_end = last.trim_ascii_end();
        while let Some(rest) = body_end.strip_suffix(b"\\") {
            body_end = rest.trim_ascii_end();
        }
        if name_len > 0 && rest.get(name_len) == Some(&b'(') && body_end.ends_with(b"}") {
            out.push(&rest[..name_len]);
        }
    }
    out
}

/// Whether a C or C++ problem may be a macro's doing, which a parser without the preprocessor
/// cannot read: a missing or unexpected token in a statement (its line, and the lines before it
/// back to the previous `;`, `{`, `}` or `:` at a line's end, comments and blank lines passed
/// over, at most 8) that names an identifier in capitals with an underscore (`FMT_NOEXCEPT x;`,
/// `FMT_BEGIN_NAMESPACE` on the line before a declaration, `FMT_ENABLE_IF(` around a template
/// argument) or calls a statement macro the file defines (see [`function_macros`]); a bracket
/// reported open or closing
/// nothing on a line that starts a statement, names such a macro and closes every bracket of its
/// kind it opens (`FMT_MSC_WARNING(suppress : 4251)`); or
/// any problem in a `#define` (a line ending with `\\`) or within 10 lines of preprocessor
/// alternatives (`#else`, `#elif`: two headers for one body). Brackets and strings left open
/// elsewhere are never a macro's.
fn near_a_macro(text: &[u8], defined: &[&[u8]], f: &Finding) -> bool {
    let line = line_of(text, f.at.start);
    let span = |l: usize| {
        let s = line_start(text, l);
        let e = line_start(text, l + 1);
        &text[s..e.max(s)]
    };
    let words = |bytes: &[u8]| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let n = bytes[i..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            if n > 0 {
                out.push((i, i + n));
                i += n;
            } else {
                i += 1;
            }
        }
        out
    };
    let macro_like = |bytes: &[u8]| {
        words(bytes).into_iter().any(|(s, e)| {
            let w = &bytes[s..e];
            let capitals = w.len() >= 4
                && w.contains(&b'_')
                && w[0].is_ascii_uppercase()
                && w.iter().all(|b| !b.is_ascii_lowercase());
            let called = bytes[e..].trim_ascii_start().starts_with(b"(") && defined.contains(&w);
            capitals || called
        })
    };
    let continued = |bytes: &[u8]| bytes.trim_ascii_end().ends_with(b"\\");
    let token_level = matches!(
        f.problem,
        Problem::Missing { .. } | Problem::Unexpected { .. } | Problem::Expected { .. }
    );
    // On the problem's line, a macro anywhere; on the statement's lines before it, a macro that
    // starts its line (`FMT_BEGIN_NAMESPACE`, `FMT_ENABLE_IF(`, `test_cond(`), not one passed as
    // an argument (`set_error(r, REDIS_ERR,` before a line that lost its `;`).
    let starts_with_macro = |bytes: &[u8]| macro_like(first_call(bytes.trim_ascii_start()));
    if token_level
        && (macro_like(span(line))
            || statement_lines(text, line)
                .into_iter()
                .skip(1)
                .any(|l| starts_with_macro(span(l))))
    {
        return true;
    }
    // A bracket's problem on a macro's line is the macro's only when the line starts a statement:
    // after a line that lost its `;`, the next line's brackets are read wrongly because of it.
    let starts_statement = statement_lines(text, line).len() == 1;
    if let Problem::NeverClosed { opener, closer, .. } = &f.problem {
        let s = span(line);
        if macro_like(s) && balanced(s, opener.as_bytes(), closer.as_bytes()) && starts_statement {
            return true;
        }
    }
    if let Problem::ClosesNothing { closer } = &f.problem {
        let s = span(line);
        let opener: &[u8] = match closer.as_str() {
            ")" => b"(",
            "]" => b"[",
            "}" => b"{",
            _ => b"",
        };
        if !opener.is_empty() && macro_like(s) && balanced(s, opener, closer.as_bytes()) && starts_statement {
            return true;
        }
    }
    if (line.saturating_sub(1)..=line).any(|l| continued(span(l))) {
        return true;
    }
    (line.saturating_sub(10)..line + 10).any(|l| {
        let t = span(l).trim_ascii_start();
        t.starts_with(b"#else") || t.starts_with(b"#elif")
    })
}

/// The zero-based lines of the C-like statement holding line `line`: it, and the lines before it
/// back to one ending with `;`, `{`, `}` or `:` (not included), comment and blank lines passed
/// over; at most 8 lines looked at.
fn statement_lines(text: &[u8], line: usize) -> Vec<usize> {
    let mut out = vec![line];
    let mut l = line;
    for _ in 0..8 {
        if l == 0 {
            break;
        }
        l -= 1;
        let s = line_start(text, l);
        let e = line_start(text, l + 1);
        let t = text[s..e.max(s)].trim_ascii();
        let comment = t.starts_with(b"//") || t.starts_with(b"/*") || t.starts_with(b"*") || t.ends_with(b"*/");
        if t.is_empty() || comment {
            continue;
        }
        if matches!(t.last(), Some(b';' | b'{' | b'}' | b':')) || t.starts_with(b"#") {
            break;
        }
        out.push(l);
    }
    out
}

/// The first word of `line` with what follows it up to an opening `(` (so a call's name keeps
/// its `(`): what [`near_a_macro`] judges of a line that starts with a macro.
fn first_call(line: &[u8]) -> &[u8] {
    let n = line
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let rest = &line[n..];
    let spaces = rest.iter().take_while(|b| **b == b' ' || **b == b'\t').count();
    if rest.get(spaces) == Some(&b'(') {
        &line[..n + spaces + 1]
    } else {
        &line[..n]
    }
}

/// Whether `line` closes every `opener` it opens, in order, and closes no other (outside strings
/// is not told apart: a macro line is short).
fn balanced(line: &[u8], opener: &[u8], closer: &[u8]) -> bool {
    let (Some(&o), Some(&c)) = (opener.first(), closer.first()) else {
        return false;
    };
    if opener.len() != 1 || closer.len() != 1 {
        return false;
    }
    let mut depth = 0usize;
    let mut any = false;
    for &b in line {
        if b == o {
            depth += 1;
            any = true;
        } else if b == c {
            if depth == 0 {
                return false;
            }
            depth -= 1;
        }
    }
    any && depth == 0
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
                // Not the line's last token, and the line does not go on with a `,` or an
                // operator onto a line indented deeper (or one that closes it): a one-line block
                // or list that lost its closer (`"a": { "b": 1 },` without its `}`).
                let last_token = i + 1 == on.len();
                let tail = on[on.len() - 1].kind();
                let continued = next_line.is_none_or(|n| {
                    let s = line_start(text, n) + indent(n);
                    indent(n) > indent(line) || text[s..].starts_with(closer.as_bytes())
                });
                let goes_on =
                    continued && matches!(tail, "," | "(" | "[" | "{" | "=" | "+" | "-" | "&&" | "||" | "." | "\\");
                // Or the last, with the next line at the same indentation: no block follows (a
                // `{}` that lost its `}`; a line indented less may be a signature's body).
                // A `(` or `[` ending the line likewise, unless the next line closes it
                // (`const key = createKey(` before `function Page() {`: the `)` was dropped).
                let no_block = last_token
                    && next_line.is_some_and(|n| {
                        indent(n) == indent(line)
                            && (opener == "{"
                                || !text[line_start(text, n) + indent(n)..].starts_with(closer.as_bytes()))
                    });
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

/// The most lines a block may span for [`uneven_block`] to read it.
const UNEVEN_BLOCK_LINES: usize = 400;

/// The most lines an edit may write for [`uneven_block`] to read the blocks of each.
const UNEVEN_EDIT_LINES: usize = 50;

/// A line the edit wrote that opens a block (brackets it leaves open, the lines after it indented
/// deeper) or closes one (brackets it closes first on its line, after lines indented deeper), and
/// the line at the other end of that block (the nearest line indented as it, the other way): when
/// the lines between close nothing of the opening line's and leave nothing open, the closing line
/// must close what the opening line left open, bracket for bracket. One more opener than closers
/// (`onClick={() => {` ... `}` that lost one of its `}}`; `expect(x.toEqual([` ... `])` that lost
/// the `)` of `expect(x)`): that opener is never closed, on the opening line, where the parser
/// blames an outer opener or the lines below; one closer more: it closes nothing.
fn uneven_block(language: Language, tree: &Tree, text: &[u8], focus: &[Range<usize>]) -> Option<Finding> {
    // Each line reads a block's tokens: an edit of many lines (a rewrite) is left to the rules after.
    if written_lines(text, focus).count() > UNEVEN_EDIT_LINES {
        return None;
    }
    let lines = indents(text);
    for line in written_lines(text, focus) {
        let Some(indent) = lines.get(line).and_then(|l| l.1) else {
            continue;
        };
        let end = (line + 1..lines.len().min(line + UNEVEN_BLOCK_LINES))
            .find(|&l| lines[l].1.is_some_and(|n| n <= indent))
            .filter(|&end| end > line + 1 && lines[end].1 == Some(indent));
        let start = (line.saturating_sub(UNEVEN_BLOCK_LINES)..line)
            .rev()
            .find(|&l| lines[l].1.is_some_and(|n| n <= indent))
            .filter(|&start| start + 1 < line && lines[start].1 == Some(indent));
        let found = end
            .and_then(|end| block_pairs(language, tree, text, line, end))
            .or_else(|| start.and_then(|start| block_pairs(language, tree, text, start, line)));
        if found.is_some() {
            return found;
        }
    }
    None
}

/// [`uneven_block`] for the block from line `open` to line `close`.
fn block_pairs(language: Language, tree: &Tree, text: &[u8], open: usize, close: usize) -> Option<Finding> {
    let mut leaves = Vec::new();
    collect_in(
        tree.root_node(),
        line_start(text, open)..line_start(text, close + 1),
        &mut leaves,
    );
    let bracket = |n: &Node| match role(language, n.kind()) {
        Role::Opens(c) if matches!(c, ")" | "]" | "}") => Some(Some(c)),
        Role::Closes if matches!(n.kind(), ")" | "]" | "}") => Some(None),
        _ => None,
    };
    // (opener, its closer, on the opening line)
    let mut stack: Vec<(Node, &'static str, bool)> = Vec::new();
    let mut closing: Vec<Node> = Vec::new();
    for n in &leaves {
        let line = line_of(text, n.start_byte());
        if line < open || line > close || n.kind().contains("comment") {
            continue;
        }
        let Some(role) = bracket(n) else { continue };
        if line == close {
            closing.push(*n);
            continue;
        }
        match role {
            Some(c) => stack.push((*n, c, line == open)),
            None if line == open => {
                // The opening line closes before it opens: pairs on the line only.
                if stack.last().is_some_and(|(_, c, _)| closes(n.kind(), c)) {
                    stack.pop();
                } else {
                    return None;
                }
            }
            None => match stack.last() {
                Some((_, c, _)) if closes(n.kind(), c) => {
                    stack.pop();
                }
                _ => return None,
            },
        }
    }
    // The lines between leave nothing of their own open; the opening line leaves something.
    if stack.is_empty() || stack.iter().any(|(_, _, own)| !own) {
        return None;
    }
    for n in &closing {
        match bracket(n) {
            // The closing line only closes (first on its line, nothing opened before).
            Some(Some(_)) => return None,
            _ => match stack.iter().rposition(|(_, c, _)| closes(n.kind(), c)) {
                Some(at) if at + 1 == stack.len() => {
                    stack.pop();
                }
                // An opener after the one it closes never was.
                Some(_) => {
                    let (o, c, _) = stack.last().copied()?;
                    return Some(never_closed_before(o, c, line_start(text, close)));
                }
                None => {
                    return Some(Finding {
                        at: n.start_byte()..n.end_byte(),
                        problem: Problem::ClosesNothing {
                            closer: n.kind().to_string(),
                        },
                        hint: None,
                    })
                }
            },
        }
    }
    // The closing line must start with its closers: a line going on after them is not one.
    if closing.is_empty() || stack.is_empty() {
        return None;
    }
    let (o, c, _) = stack.last().copied()?;
    Some(never_closed_before(o, c, line_start(text, close)))
}

/// `opener` is never closed by a `closer`; `hint` is the start of the line it belongs before.
fn never_closed_before(opener: Node, closer: &str, hint: usize) -> Finding {
    Finding {
        at: opener.start_byte()..opener.end_byte(),
        problem: Problem::NeverClosed {
            opener: opener.kind().to_string(),
            closer: closer.to_string(),
            before_line: None,
        },
        hint: Some(hint),
    }
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
                // Its closer at its own indentation; one indented less closes an outer block (the
                // block's own closer was dropped).
                let at = lines[end].0 + lines[end].1.unwrap_or(0);
                let closed_here = text[at..].starts_with(closer.as_bytes()) && lines[end].1 == Some(indent);
                if closed_here || end == line + 1 {
                    continue;
                }
                // Closed by a token before the block ends (a parameter list whose `)` ends its
                // last line): not left open, whatever the indentation says.
                let block_end = lines[end].0;
                if closes_within(language, &leaves[i..], leaf.kind(), |n| n.start_byte() < block_end) {
                    continue;
                }
                if best.as_ref().is_none_or(|(l, _)| *l < line) {
                    best = Some((line, never_closed_before(*leaf, closer, lines[end].0)));
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
                // A block with no line indented deeper (a namespace's body, by a common style) says
                // nothing by indentation.
                if !(start + 1..line).any(|l| lines[l].1.is_some()) {
                    continue;
                }
                // An opener between the block's first line and the closer, left open there (a
                // condition over several lines whose `{` ends the last one): the closer closes it.
                let from_byte = lines[start].0;
                let opened_between = leaves[..i]
                    .iter()
                    .rev()
                    .take_while(|n| n.start_byte() >= from_byte)
                    .collect::<Vec<_>>();
                let mut depth = 0usize;
                for n in opened_between.iter().rev() {
                    match role(language, n.kind()) {
                        Role::Opens(c) if closes(leaf.kind(), c) => depth += 1,
                        Role::Closes if n.kind() == leaf.kind() => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                }
                // (Brackets only: a keyword such as Ruby's `if` opens nothing as a modifier.)
                if depth > 0 && matches!(leaf.kind(), ")" | "]" | "}") {
                    continue;
                }
                // The line that opened the block must end with an opener. It may lie before the
                // leaves gathered (a module's `mod small {` 200 lines up): its own are read then.
                let mut own = Vec::new();
                let on_start: &[Node] = if start < from {
                    collect_in(
                        tree.root_node(),
                        line_start(text, start)..line_start(text, start + 1),
                        &mut own,
                    );
                    &own
                } else {
                    &leaves
                };
                if !on_start.iter().any(|n| line_of(text, n.start_byte()) == start) {
                    // Outside the tree (a window's): the line says nothing here.
                    continue;
                }
                let opened = on_start
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

/// Whether the opener `leaves[0]` (of kind `opener`) is closed by a later leaf among those `within`
/// accepts, counting its nested openers of the same kind.
fn closes_within(language: Language, leaves: &[Node], opener: &str, within: impl Fn(&Node) -> bool) -> bool {
    // Brackets only: a keyword such as Ruby's `if` opens nothing as a modifier.
    let Role::Opens(closer) = role(language, opener) else {
        return false;
    };
    if !matches!(opener, "(" | "[" | "{") {
        return false;
    }
    let mut depth = 0usize;
    // Every opener this closer closes counts (the shell's `${` and `{` share `}`).
    for n in leaves.iter().take_while(|n| within(n)) {
        if matches!(role(language, n.kind()), Role::Opens(c) if c == closer) {
            depth += 1;
        } else if n.kind() == closer {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return true;
            }
        }
    }
    false
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the rule takes `problem` at the first `token` of `text` for a macro's doing.
    fn macros(text: &str, token: &str, problem: Problem) -> bool {
        let at = text.find(token).expect("token in text");
        let text = text.as_bytes();
        // The line index of this text, built afresh (as `attribute` builds it).
        NEWLINES.with(|cell| {
            *cell.borrow_mut() = (
                text.as_ptr() as usize,
                text.len(),
                memchr::memchr_iter(b'\n', text).collect(),
            );
        });
        let defined = function_macros(text);
        let finding = Finding {
            at: at..at + token.len(),
            problem,
            hint: None,
        };
        near_a_macro(text, &defined, &finding)
    }

    fn unexpected(token: &str) -> Problem {
        Problem::Unexpected { token: token.into() }
    }

    #[test]
    fn a_declaration_after_a_line_holding_only_a_macro_is_the_macros() {
        let text = "#endif\n\nFMT_BEGIN_NAMESPACE\ntemplate <> struct formatter<id> : base {};\n";
        assert!(macros(text, "template", unexpected("template")));
        // Past a doc comment and a blank line too.
        let text = "}  // namespace detail\n\nFMT_MODULE_EXPORT_BEGIN\n\n/**\n  Doc.\n */\ninline std::tm f() {\n";
        assert!(macros(text, "std", unexpected("std")));
        // Not past a statement's end.
        let text = "FMT_BEGIN_NAMESPACE;\ntemplate <> struct formatter<id> : base {};\n";
        assert!(!macros(text, "template", unexpected("template")));
    }

    #[test]
    fn a_template_argument_inside_a_macro_call_over_lines_is_the_macros() {
        let text = "template <typename T,\n          FMT_ENABLE_IF(is_iterator<T>::value &&\n                        !std::is_same<T, char>::value)>\n";
        assert!(macros(text, "!std", unexpected("!")));
    }

    #[test]
    fn a_macro_passed_as_an_argument_is_not_the_statements() {
        // `REDIS_ERR` is an argument on the line before: the line that lost its `;` is the edit's.
        let text = "    set_error(r, REDIS_ERR,\n        \"too large\")\n    return 1;\n";
        assert!(!macros(text, "\"too", Problem::Missing { token: ";".into() }));
    }

    #[test]
    fn a_statement_macro_the_file_defines_needs_no_semicolon() {
        let text = "#define test_cond(_c) if(_c) ok(); else {fail(); fails++;}\nvoid t(int x) {\n    test_cond(x == 1 &&\n        x != 2)\n    test_cond(x)\n}\n";
        assert!(macros(text, "x != 2)", Problem::Missing { token: ";".into() }));
        // A macro whose body is an expression still needs its `;`.
        let text = "#define twice(x) ((x) * 2)\nvoid t(int x) {\n    int y = twice(x)\n    y = 1;\n}\n";
        assert!(!macros(text, "twice(x)\n", Problem::Missing { token: ";".into() }));
    }

    #[test]
    fn a_balanced_macro_call_starting_a_statement_is_the_macros() {
        let open = || Problem::NeverClosed {
            opener: "(".into(),
            closer: ")".into(),
            before_line: None,
        };
        let text = "class ostream {\n private:\n  FMT_MSC_WARNING(suppress : 4251)\n  int buffer_;\n};\n";
        assert!(macros(text, "(suppress", open()));
        // After a line that lost its `;`, the macro line's brackets are misread because of it.
        let text = "TEST(a, b) {\n  using std::path\n  EXPECT_EQ(f(\"{}\"), \"x\");\n}\n";
        assert!(!macros(text, "(f(", open()));
        // A bracket the line does not close is not the macro's.
        let text = "class ostream {\n private:\n  FMT_MSC_WARNING(suppress : 4251\n  int buffer_;\n};\n";
        assert!(!macros(text, "(suppress", open()));
    }
}
