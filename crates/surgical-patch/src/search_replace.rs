//! SEARCH/REPLACE blocks, as Aider, Cline and Roo models write them:
//!
//! ````text
//! src/app.py
//! ```python
//! <<<<<<< SEARCH
//! def old():
//! =======
//! def new():
//! >>>>>>> REPLACE
//! ```
//! ````
//!
//! The file name is the last non-empty line before the block (a code fence in between is skipped);
//! without one, the previous block's file, else the call's `path`. Markers: `<<<<<<< SEARCH` or
//! Cline's `------- SEARCH`, then `=======`, then `>>>>>>> REPLACE` or `+++++++ REPLACE` (3 or more
//! marker characters, `=` included). A marker inside a block (a second divider, a SEARCH or REPLACE
//! marker out of order) is refused, naming its line: no marker is ever written into a file. Roo's
//! `:start_line:N` (and `:end_line:N`) right after the SEARCH marker, with its `-------` separator,
//! gives a line hint; anywhere in a REPLACE part such a directive is refused, as Roo refuses it (a
//! directive is never written into a file: the text itself is written only when escaped, as
//! `\:start_line:`). Backslash-escaped markers (`\=======`) are content lines without the backslash.
//! Aider's `...` lines between blocks are skipped. An incomplete block — a SEARCH without its
//! `=======`, or without its `>>>>>>> REPLACE` (a message cut off inside the REPLACE part cannot be
//! told from a finished one) — and a REPLACE marker outside any block (a block without its SEARCH
//! marker) are refused, as Roo refuses them; nothing of the patch is applied. All blocks of one file
//! are matched against the file as it was before the call, like the edits of one `edit` call. An
//! empty SEARCH section creates the file (or fills an empty one).

use super::{patch_lines, Hunk, Op, OpKind, ParseError, Tag};

/// `<<<<<<< SEARCH` or `------- SEARCH` (3 or more marker characters, an optional `>`).
pub(crate) fn is_search_marker(t: &str) -> bool {
    marker(t, &['<', '-'], "SEARCH")
}

/// `=======`: Aider writes 5 to 9 `=`, Cline accepts 3 or more; so does surgical.
fn is_divider(t: &str) -> bool {
    t.len() >= 3 && t.chars().all(|c| c == '=')
}

/// A marker line escaped with a backslash (Roo's `\=======`, `\<<<<<<< SEARCH`, `\>>>>>>> REPLACE`,
/// `\-------`, `\:start_line:`; as Roo does, also any line starting with a backslash and seven marker
/// characters, such as `\<<<<<<< HEAD`): the content line without its backslash.
fn unescape(line: &str) -> &str {
    let Some(rest) = line.strip_prefix('\\') else {
        return line;
    };
    let t = rest.trim();
    let marker_like = ["<<<<<<<", "=======", ">>>>>>>", "-------", "+++++++"]
        .iter()
        .any(|m| rest.starts_with(m))
        || is_divider(t)
        || is_search_marker(t)
        || is_replace_marker(t)
        || (t.len() >= 3 && t.chars().all(|c| c == '-'))
        || line_directive(t).is_some()
        || t.starts_with(":start_line:")
        || t.starts_with(":end_line:");
    if marker_like {
        rest
    } else {
        line
    }
}

/// A line Aider writes between blocks to say that text was left out.
fn is_ellipsis(t: &str) -> bool {
    t == "..." || t == "…"
}

fn is_replace_marker(t: &str) -> bool {
    marker(t, &['>', '+'], "REPLACE")
}

fn marker(t: &str, chars: &[char], word: &str) -> bool {
    let t = t.trim();
    let Some(c) = t.chars().next().filter(|c| chars.contains(c)) else {
        return false;
    };
    let run = t.chars().take_while(|&x| x == c).count();
    if run < 3 {
        return false;
    }
    let rest = t[run..].trim_start();
    rest == word || rest.strip_prefix(word) == Some(">")
}

/// The file name a line before a block gives, if it looks like one.
fn file_name(line: &str) -> Option<String> {
    let t = line.trim();
    let t = t.trim_start_matches('#').trim();
    let t = t
        .trim_matches(|c| c == '*' || c == '`' || c == ':' || c == '"' || c == '\'')
        .trim();
    let t = t
        .strip_prefix("File:")
        .or_else(|| t.strip_prefix("file:"))
        .or_else(|| t.strip_prefix("Filename:"))
        .unwrap_or(t)
        .trim();
    // A line of `=` (a Markdown heading's underline, a stray divider) names no file.
    if t.is_empty() || t.chars().any(char::is_whitespace) || t.len() > 4096 || is_divider(t) {
        return None;
    }
    Some(t.to_string())
}

/// A Roo line directive in a REPLACE part, as Roo detects it there: a trimmed line starting with
/// `:start_line:` or `:end_line:` (with or without a number; an escaped `\:start_line:` is content).
fn directive_in_replace(t: &str) -> Option<&'static str> {
    [":start_line:", ":end_line:"].into_iter().find(|d| t.starts_with(d))
}

/// Roo's `:start_line:12` / `:end_line:14` lines.
fn line_directive(t: &str) -> Option<(&str, usize)> {
    for key in [":start_line:", ":end_line:"] {
        if let Some(rest) = t.strip_prefix(key) {
            return rest.trim().parse().ok().map(|n| (key, n));
        }
    }
    None
}

/// Parses SEARCH/REPLACE blocks; `default_path` is the file for blocks that name none.
pub(crate) fn parse(text: &str, default_path: Option<&str>) -> Result<Vec<Op>, ParseError> {
    let lines = patch_lines(text);
    let mut ops: Vec<Op> = Vec::new();
    let mut current: Option<String> = None;
    let mut candidate: Option<String> = None;
    // Whether a Markdown code fence is open (outside blocks, fences open and close in turn).
    let mut fence_open = false;
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let t = raw.trim();
        if t.starts_with("```") {
            fence_open = !fence_open;
        }
        if is_replace_marker(t) {
            return Err(ParseError::new(
                i + 1,
                format!(
                    "this `>>>>>>> REPLACE` line closes no block{}: a block starts with `<<<<<<< SEARCH`, then \
                     the text to find, `=======`, the text to write and `>>>>>>> REPLACE`. Add the missing \
                     `<<<<<<< SEARCH` line (or, to write a marker line itself, escape it with a backslash).",
                    if ops.is_empty() {
                        ""
                    } else {
                        " (the block before it is already closed)"
                    }
                ),
            ));
        }
        // A divider outside any block with no text above it (at the start, after a blank line or
        // right after a block): a block's part without its SEARCH marker (a heading's underline,
        // under a line of text, is prose).
        let above = i.checked_sub(1).map(|k| lines[k].trim());
        if is_divider(t) && above.is_none_or(|a| a.is_empty() || is_replace_marker(a) || is_divider(a)) {
            return Err(ParseError::new(
                i + 1,
                "this `=======` line is outside any block: a block starts with `<<<<<<< SEARCH`, then the text \
                 to find, `=======`, the text to write and `>>>>>>> REPLACE`. Add the missing `<<<<<<< SEARCH` \
                 line, or remove the stray `=======` (to write a line of `=` itself, put it inside a block, \
                 escaped with a backslash).",
            ));
        }
        if !is_search_marker(t) {
            // A code fence between the name and the block keeps the name; other text replaces it.
            if !t.is_empty() && !t.starts_with("```") && !is_ellipsis(t) {
                candidate = file_name(t);
            }
            i += 1;
            continue;
        }
        let block_line = i + 1;
        let path = candidate
            .take()
            .or_else(|| current.clone())
            .or_else(|| default_path.map(str::to_string))
            .ok_or_else(|| {
                ParseError::new(
                    block_line,
                    "this SEARCH block names no file: put the file's path alone on the line before it (or give \
                     `path` in the call)",
                )
            })?;
        current = Some(path.clone());
        i += 1;
        let mut hint = None;
        let mut saw_directive = false;
        while let Some((key, n)) = lines.get(i).and_then(|l| line_directive(l.trim())) {
            if key == ":start_line:" {
                hint = Some(n);
            }
            saw_directive = true;
            i += 1;
        }
        if saw_directive
            && lines
                .get(i)
                .is_some_and(|l| l.trim().len() >= 3 && l.trim().chars().all(|c| c == '-'))
        {
            i += 1;
        }
        let mut search = Vec::new();
        while i < lines.len() && !is_divider(lines[i].trim()) {
            if is_replace_marker(lines[i]) || is_search_marker(lines[i]) {
                return Err(ParseError::new(
                    i + 1,
                    format!(
                        "this marker line is inside the SEARCH part of the block that starts at line {block_line}: \
                         expected `=======` between the SEARCH and the REPLACE part first (to search for a marker \
                         line itself, escape it with a backslash)"
                    ),
                ));
            }
            search.push(unescape(lines[i]).to_string());
            i += 1;
        }
        if i >= lines.len() {
            return Err(ParseError::new(
                block_line,
                format!(
                    "the block that starts at line {block_line} has no `=======` line (was the message cut off?): \
                     a block is `<<<<<<< SEARCH`, the text to find, `=======`, the text to write and \
                     `>>>>>>> REPLACE`; send it whole."
                ),
            ));
        }
        let divider_line = i + 1;
        i += 1;
        let mut replace = Vec::new();
        let mut closed = false;
        while i < lines.len() {
            let t = lines[i].trim();
            if is_replace_marker(t) {
                closed = true;
                break;
            }
            if is_search_marker(t) {
                return Err(ParseError::new(
                    i + 1,
                    format!("the block that starts at line {block_line} has no `>>>>>>> REPLACE` line before the next block"),
                ));
            }
            if is_divider(t) {
                return Err(ParseError::new(
                    i + 1,
                    format!(
                        "a second `=======` in the block that starts at line {block_line} (its divider is line \
                         {divider_line}): a block has one SEARCH part, one `=======` and one REPLACE part ending with \
                         `>>>>>>> REPLACE`. To write a line of `=` itself, escape it with a backslash."
                    ),
                ));
            }
            if let Some(directive) = directive_in_replace(t) {
                return Err(ParseError::new(
                    i + 1,
                    format!(
                        "`{directive}` is in the REPLACE part of the block that starts at line {block_line}: line \
                         directives (`:start_line:`, `:end_line:`) belong right after `<<<<<<< SEARCH`, before \
                         `-------`; move it there or drop it. To write the text `{directive}` itself into the file, \
                         escape it with a backslash (`\\{directive}`)."
                    ),
                ));
            }
            replace.push(unescape(lines[i]).to_string());
            i += 1;
        }
        if !closed {
            // A message cut off inside the REPLACE part looks exactly like a finished one: applying it
            // could write a truncated replacement (or delete the searched text). Refused, as Roo does.
            let fence = if fence_open && !replace.iter().any(|l| l.trim().starts_with("```")) {
                " (its code fence is never closed either)"
            } else {
                ""
            };
            return Err(ParseError::new(
                block_line,
                format!(
                    "the block that starts at line {block_line} has no `>>>>>>> REPLACE` line after its REPLACE part \
                     (divider at line {divider_line}){fence}: was the message cut off? End the block with a line \
                     `>>>>>>> REPLACE` after the text to write, and send it again."
                ),
            ));
        }
        i += 1;
        let mut hunk = Hunk {
            hint,
            patch_line: block_line,
            ..Hunk::default()
        };
        // An all-blank SEARCH (as models write it to create a file) counts as empty.
        if search.iter().all(|l| l.trim().is_empty()) {
            search.clear();
        }
        // Lines both sides start or end with are unchanged lines (context), as in a diff.
        let pre = search.iter().zip(&replace).take_while(|(a, b)| a == b).count();
        let post = search[pre..]
            .iter()
            .rev()
            .zip(replace[pre..].iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let context = |l: &[String]| l.iter().map(|l| (Tag::Context, l.clone())).collect::<Vec<_>>();
        hunk.lines.extend(context(&search[..pre]));
        hunk.lines.extend(
            search[pre..search.len() - post]
                .iter()
                .map(|l| (Tag::Removed, l.clone())),
        );
        hunk.lines.extend(
            replace[pre..replace.len() - post]
                .iter()
                .map(|l| (Tag::Added, l.clone())),
        );
        hunk.lines.extend(context(&search[search.len() - post..]));
        match ops.iter_mut().find(|op| op.path == path) {
            Some(Op {
                kind: OpKind::Update { hunks, .. },
                ..
            }) => hunks.push(hunk),
            _ => ops.push(Op {
                path,
                alternatives: Vec::new(),
                kind: OpKind::Update {
                    hunks: vec![hunk],
                    move_to: None,
                    create_if_missing: true,
                },
                patch_line: block_line,
            }),
        }
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunks(op: &Op) -> &[Hunk] {
        match &op.kind {
            OpKind::Update { hunks, .. } => hunks,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn aider_and_cline_blocks() {
        let text = "Here is the change.\n\nsrc/a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> \
                    REPLACE\n```\n\n<<<<<<< SEARCH\ny = 1\n=======\n>>>>>>> REPLACE\n\nb.txt\n------- SEARCH\nold\n\
                    =======\nnew\n+++++++ REPLACE\n";
        let ops = parse(text, None).unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0].path, "src/a.py");
        assert_eq!(hunks(&ops[0]).len(), 2);
        assert_eq!(hunks(&ops[0])[0].old_lines(), vec!["x = 1"]);
        assert_eq!(hunks(&ops[0])[0].new_lines(), vec!["x = 2"]);
        assert_eq!(hunks(&ops[0])[1].new_lines(), Vec::<&str>::new());
        assert_eq!(ops[1].path, "b.txt");
        assert_eq!(hunks(&ops[1])[0].old_lines(), vec!["old"]);
    }

    #[test]
    fn default_path_roo_hints_and_errors() {
        let ops = parse(
            "<<<<<<< SEARCH\n:start_line:12\n-------\na\n=======\nb\n>>>>>>> REPLACE",
            Some("f.rs"),
        )
        .unwrap();
        assert_eq!(ops[0].path, "f.rs");
        assert_eq!(hunks(&ops[0])[0].hint, Some(12));
        assert_eq!(hunks(&ops[0])[0].old_lines(), vec!["a"]);
        assert!(parse("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE", None).is_err());
        // An incomplete block is refused, wherever the message ends: without its divider, without its
        // REPLACE marker (after a closed code fence, inside one that never closes, or as the last of
        // several blocks).
        assert!(parse("f\n<<<<<<< SEARCH\na\n", None).is_err());
        assert!(parse("f\n<<<<<<< SEARCH\na\n=======\nb\n```\n\n", None).is_err());
        assert!(parse("```text\nf\n<<<<<<< SEARCH\na\n=======\nb\n\n\noops!\n", None).is_err());
        assert!(parse("f\n<<<<<<< SEARCH\na\n=======\nb\n", None).is_err());
        let e = parse(
            "f\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\ng\n<<<<<<< SEARCH\nc\n=======\nd\n",
            None,
        )
        .unwrap_err();
        assert_eq!(e.line, 9);
        assert!(e.message.contains("no `>>>>>>> REPLACE`"), "{}", e.message);
        assert!(
            is_search_marker("<<<<<<< SEARCH") && is_search_marker("------- SEARCH") && !is_search_marker("SEARCH")
        );
    }

    #[test]
    fn malformed_blocks_are_refused_naming_the_line() {
        // A second divider inside one block.
        let e = parse("f\n<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n", None).unwrap_err();
        assert_eq!(e.line, 6);
        // A marker inside the SEARCH part.
        let e = parse(
            "f\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n=======\nb\n>>>>>>> REPLACE\n",
            None,
        )
        .unwrap_err();
        assert_eq!(e.line, 4);
        // A SEARCH marker inside the REPLACE part.
        let e = parse(
            "f\n<<<<<<< SEARCH\na\n=======\n<<<<<<< SEARCH\nb\n>>>>>>> REPLACE\n",
            None,
        )
        .unwrap_err();
        assert_eq!(e.line, 5);
    }

    #[test]
    fn divider_lengths_ellipsis_and_roo_escapes() {
        for divider in ["===", "=======", "=========", "============"] {
            let ops = parse(&format!("f\n------- SEARCH\na\n{divider}\nb\n+++++++ REPLACE\n"), None).unwrap();
            assert_eq!(hunks(&ops[0])[0].new_lines(), vec!["b"], "{divider}");
        }
        // Aider's `...` between blocks is neither a file name nor content.
        let ops = parse(
            "f.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n...\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n",
            None,
        )
        .unwrap();
        assert_eq!(ops.len(), 1);
        assert_eq!(hunks(&ops[0]).len(), 2);
        // Roo's directives are read, its escaped markers are content without their backslash.
        let ops = parse(
            "<<<<<<< SEARCH\n:start_line:3\n:end_line:5\n-------\nx\n\\=======\n\\>>>>>>> REPLACE\n=======\nx\n\\=======\ny\n>>>>>>> REPLACE",
            Some("f"),
        )
        .unwrap();
        let h = &hunks(&ops[0])[0];
        assert_eq!(h.hint, Some(3));
        assert_eq!(h.old_lines(), vec!["x", "=======", ">>>>>>> REPLACE"]);
        assert_eq!(h.new_lines(), vec!["x", "=======", "y"]);
        assert_eq!(unescape("\\n"), "\\n");
    }

    /// Issue 28, class 3: Roo's line directives in a REPLACE part are refused, as Roo refuses them —
    /// alone, with spaces around, with or without a number, in the middle of the content, in one
    /// block of several — and written only when escaped.
    #[test]
    fn directives_in_a_replace_part_are_refused_unless_escaped() {
        let block = |replace: &str| format!("<<<<<<< SEARCH\na\n=======\n{replace}\n>>>>>>> REPLACE\n");
        for (replace, line) in [
            (":start_line:5\nb", 4),
            (":end_line:7\nb", 4),
            ("  :start_line:5  \nb", 4),
            (":start_line:\nb", 4),
            ("b\n:start_line:5\nc", 5),
            ("b\n\t:end_line:9", 5),
            (":start_line:5\n:end_line:6\n-------\nb", 4),
        ] {
            let e = parse(&block(replace), Some("f")).unwrap_err();
            assert_eq!(e.line, line, "{replace:?}: {}", e.message);
            assert!(
                e.message.contains("REPLACE part of the block that starts at line 1"),
                "{}",
                e.message
            );
            assert!(e.message.contains("escape it with a backslash"), "{}", e.message);
        }
        // One bad block among several: the whole patch is refused, naming the bad block.
        let text = format!("{}{}", block("b"), block("x\n:start_line:2"));
        let e = parse(&text, Some("f")).unwrap_err();
        assert_eq!(e.line, 10);
        assert!(e.message.contains("block that starts at line 6"), "{}", e.message);
        // Escaped, the text is content.
        let ops = parse(&block("\\:start_line:5\n\\:end_line:6\nb"), Some("f")).unwrap();
        assert_eq!(hunks(&ops[0])[0].new_lines(), vec![":start_line:5", ":end_line:6", "b"]);
        // In the SEARCH part, right after the marker, it is the line hint (not content).
        let ops = parse(
            "<<<<<<< SEARCH\n:start_line:3\n-------\na\n=======\nb\n>>>>>>> REPLACE\n",
            Some("f"),
        )
        .unwrap();
        assert_eq!(hunks(&ops[0])[0].hint, Some(3));
        assert_eq!(hunks(&ops[0])[0].new_lines(), vec!["b"]);
    }

    /// A REPLACE marker outside any block (a block without its SEARCH marker) is refused, even after
    /// a complete block.
    #[test]
    fn a_replace_marker_outside_a_block_is_refused() {
        let e = parse("some text\nb\n>>>>>>> REPLACE\n", Some("f")).unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse(
            "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\nc\n>>>>>>> REPLACE\n",
            Some("f"),
        )
        .unwrap_err();
        assert_eq!(e.line, 7);
        assert!(e.message.contains("already closed"), "{}", e.message);
        // Its divider, with nothing above it, is refused first.
        let e = parse("=======\nb\n>>>>>>> REPLACE\n", Some("f")).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("outside any block"), "{}", e.message);
        // A stray divider before the first block (Grok writes one), or right after a block.
        let e = parse("=======\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", Some("f")).unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse(
            "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n=======\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n",
            Some("f"),
        )
        .unwrap_err();
        assert_eq!(e.line, 6);
        // A lone `=======` under a line of prose (a Markdown heading's underline) is not a marker.
        let ops = parse(
            "Title\n=======\n\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
            Some("f"),
        )
        .unwrap();
        assert_eq!(ops[0].path, "f");
        assert_eq!(hunks(&ops[0]).len(), 1);
    }
}
