//! Codex's `apply_patch` grammar:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: path          followed by `+line`s
//! *** Delete File: path
//! *** Update File: path
//! *** Move to: new/path       optional
//! @@ class Foo                chunks: `@@` lines (bare, or naming an anchor; several may be stacked),
//! @@     def bar():           then ` ` (unchanged), `-` (removed), `+` (added) lines,
//!      x = 1                  optionally ended by `*** End of File`
//! -    y = 2
//! +    y = 3
//! *** End Patch
//! ```
//!
//! Tolerated as Codex tolerates them: markers padded with whitespace, CRLF line breaks, a heredoc
//! wrapper (`<<'EOF'` … `EOF`, also with `apply_patch` in front), a first chunk without `@@`, an empty
//! line inside a chunk (an empty unchanged line). Also tolerated: a Markdown code fence around the
//! patch, stacked `@@` lines, a unified-diff `@@ -12,3 +12,4 @@` header (its line number becomes a
//! hint), an empty line inside an Add File section, and empty lines at the end of a chunk (dropped:
//! trailing unchanged lines only narrow the search).

use super::{patch_lines, Hunk, Op, OpKind, ParseError, Tag};

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";
const EOF: &str = "*** End of File";

/// A patch's place in its text: the index range of its lines, and the directory of a `cd DIR &&`
/// in front of its heredoc.
struct Unwrapped {
    start: usize,
    end: usize,
    dir: Option<String>,
}

/// One shell word at the start of `s` (`'quoted'`, `"quoted"`, or bare up to a blank), and the rest;
/// `None` when a quote is not closed.
fn shell_word(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    let mut word = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '\'' | '"' => {
                let close = s[i + 1..].find(c)? + i + 1;
                word.push_str(&s[i + 1..close]);
                while chars.peek().is_some_and(|&(j, _)| j <= close) {
                    chars.next();
                }
            }
            c if c.is_whitespace() => return Some((word, &s[i..])),
            '\\' => {
                chars.next();
                if let Some((_, n)) = chars.next() {
                    word.push(n);
                }
            }
            _ => {
                word.push(c);
                chars.next();
            }
        }
    }
    Some((word, ""))
}

/// A heredoc's delimiter word (after `<<` or `<<-`) with its quotes paired as a shell pairs them:
/// `'EOF'`, `"EOF"` or `EOF`. `None` when they do not pair.
fn heredoc_delimiter(word: &str) -> Option<String> {
    let word = word.trim();
    let word = word.strip_prefix('-').unwrap_or(word).trim_start();
    let (w, rest) = shell_word(word)?;
    if !rest.trim().is_empty() || w.is_empty() || w.contains(['\'', '"']) {
        return None;
    }
    Some(w)
}

/// What may stand before `<<`: nothing, `apply_patch`, or `cd DIR && apply_patch`. `Ok(Some(dir))` for
/// the `cd`; `Err` names what else is there.
fn command_prefix(prefix: &str, line: usize) -> Result<Option<String>, ParseError> {
    let is_tool = |p: &str| matches!(p.trim(), "" | "apply_patch" | "applypatch") || p.trim().ends_with("/apply_patch");
    if is_tool(prefix) {
        return Ok(None);
    }
    let refuse = || {
        ParseError::new(
            line,
            format!(
                "`{prefix}` before the heredoc is a command surgical does not run: only `apply_patch <<'EOF'` or `cd DIR \
                 && apply_patch <<'EOF'` may stand before the patch. Send the patch alone."
            ),
        )
    };
    let Some(rest) = prefix.trim().strip_prefix("cd ") else {
        return Err(refuse());
    };
    let (dir, rest) = shell_word(rest).ok_or_else(refuse)?;
    let Some(tool) = rest.trim_start().strip_prefix("&&") else {
        return Err(refuse());
    };
    if dir.is_empty()
        || dir == "-"
        || dir.starts_with('~')
        || dir.contains('$')
        || !is_tool(tool)
        || tool.trim().is_empty()
    {
        return Err(refuse());
    }
    Ok(Some(dir))
}

/// Strips a heredoc (`<<'EOF'` … `EOF`, optionally `apply_patch <<'EOF'` or `cd DIR && apply_patch
/// <<'EOF'`) or a Markdown fence around the patch.
fn unwrap(lines: &[&str]) -> Result<Unwrapped, ParseError> {
    let mut start = 0;
    let mut end = lines.len();
    while start < end && lines[start].trim().is_empty() {
        start += 1;
    }
    while end > start && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    if end - start >= 2 {
        let first = lines[start].trim();
        let last = lines[end - 1].trim();
        if let Some(at) = first.find("<<").filter(|_| !first.starts_with("***")) {
            let prefix = &first[..at];
            let delim = heredoc_delimiter(&first[at + 2..]);
            // A heredoc: it names the tool, or its delimiter closes the text. (Other text with `<<`
            // is prose around the patch.)
            let names_tool = prefix.contains("apply_patch") || prefix.contains("applypatch");
            if names_tool || delim.as_deref() == Some(last) {
                let dir = command_prefix(prefix, start + 1)?;
                let delim = delim.ok_or_else(|| {
                    ParseError::new(
                        start + 1,
                        format!(
                            "`{first}`: the heredoc's delimiter is not one word with paired quotes; write \
                             `apply_patch <<'EOF'` and end the patch with a line `EOF`"
                        ),
                    )
                })?;
                if last != delim {
                    return Err(ParseError::new(
                        end,
                        format!(
                            "the heredoc opened on line {} must end with a line `{delim}`",
                            start + 1
                        ),
                    ));
                }
                let (start, end) = unwrap_inner(lines, start + 1, end - 1);
                return Ok(Unwrapped { start, end, dir });
            }
        }
        if first.starts_with("```") && last == "```" {
            let (start, end) = unwrap_inner(lines, start + 1, end - 1);
            return Ok(Unwrapped { start, end, dir: None });
        }
    }
    Ok(Unwrapped { start, end, dir: None })
}

/// `path` as seen from `dir` (a `cd DIR &&` before the patch): joined, unless it is absolute.
fn under(dir: Option<&str>, path: String) -> String {
    match dir {
        Some(d) if !path.starts_with('/') && !path.starts_with('\\') && path.get(1..2).is_none_or(|c| c != ":") => {
            let d = d.trim_end_matches('/');
            let p = path.strip_prefix("./").unwrap_or(&path);
            if d == "." || d.is_empty() {
                p.to_string()
            } else {
                format!("{d}/{p}")
            }
        }
        _ => path,
    }
}

fn unwrap_inner(lines: &[&str], mut start: usize, mut end: usize) -> (usize, usize) {
    while start < end && lines[start].trim().is_empty() {
        start += 1;
    }
    while end > start && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    (start, end)
}

fn is_op_header(t: &str) -> bool {
    t.starts_with(ADD) || t.starts_with(DELETE) || t.starts_with(UPDATE) || t == END
}

fn path_of(rest: &str, line: usize, what: &str) -> Result<String, ParseError> {
    let path = rest.trim();
    if path.is_empty() {
        return Err(ParseError::new(
            line,
            format!("`{what}` names no file: write `{what} path/to/file`"),
        ));
    }
    Ok(path.to_string())
}

/// Parses an apply_patch patch.
pub(crate) fn parse(text: &str) -> Result<Vec<Op>, ParseError> {
    let lines = patch_lines(text);
    let Unwrapped {
        mut start,
        mut end,
        dir,
    } = unwrap(&lines)?;
    // Prose around the patch (a model's explanation before `*** Begin Patch` or after `*** End
    // Patch`) is not part of it; a patch with its begin marker but not its end marker may be cut off,
    // and is refused. A patch with neither marker (a bare `*** Update File:` section, as models
    // sometimes send) is read as it is when its first line is a file operation.
    let begin = (start..end).find(|&i| lines[i].trim() == BEGIN);
    let end_marker = (start..end).rev().find(|&i| lines[i].trim() == END);
    let bare = begin.is_none() && start < end && is_op_header(lines[start].trim()) && lines[start].trim() != END;
    if let Some(b) = begin {
        start = b;
    }
    if let Some(e) = end_marker.filter(|&e| e >= start) {
        end = e + 1;
    }
    let (body_start, body_end) = if bare {
        (start, if end_marker.is_some() { end - 1 } else { end })
    } else {
        if start >= end || lines[start].trim() != BEGIN {
            return Err(ParseError::new(
                start.min(lines.len().saturating_sub(1)) + 1,
                "the first line of the patch must be `*** Begin Patch`",
            ));
        }
        if end - start < 2 || lines[end - 1].trim() != END {
            return Err(ParseError::new(
                end,
                "the last line of the patch must be `*** End Patch` (was the patch cut off?)",
            ));
        }
        (start + 1, end - 1)
    };
    let mut ops = body(&lines, body_start, body_end)?;
    if dir.is_some() {
        for op in &mut ops {
            op.path = under(dir.as_deref(), std::mem::take(&mut op.path));
            if let OpKind::Update { move_to: Some(to), .. } = &mut op.kind {
                *to = under(dir.as_deref(), std::mem::take(to));
            }
        }
    }
    Ok(ops)
}

/// The file operations on lines `i..body_end`.
fn body(lines: &[&str], mut i: usize, body_end: usize) -> Result<Vec<Op>, ParseError> {
    let mut ops = Vec::new();
    while i < body_end {
        let raw = lines[i];
        let t = raw.trim();
        let line_no = i + 1;
        if t.is_empty() {
            i += 1;
            continue;
        }
        if let Some(rest) = t.strip_prefix(ADD) {
            let path = path_of(rest, line_no, ADD)?;
            let mut content = String::new();
            i += 1;
            while i < body_end {
                let l = lines[i];
                if let Some(added) = l.strip_prefix('+') {
                    content.push_str(added);
                    content.push('\n');
                    i += 1;
                } else if l.trim().is_empty() && lines[i + 1..body_end].first().is_some_and(|n| n.starts_with('+')) {
                    // An empty line between added lines: an empty line the model forgot to mark.
                    content.push('\n');
                    i += 1;
                } else {
                    break;
                }
            }
            ops.push(Op {
                path,
                alternatives: Vec::new(),
                kind: OpKind::Add { content },
                patch_line: line_no,
            });
        } else if let Some(rest) = t.strip_prefix(DELETE) {
            ops.push(Op {
                path: path_of(rest, line_no, DELETE)?,
                alternatives: Vec::new(),
                kind: OpKind::Delete { hunks: Vec::new() },
                patch_line: line_no,
            });
            i += 1;
        } else if let Some(rest) = t.strip_prefix(UPDATE) {
            let path = path_of(rest, line_no, UPDATE)?;
            i += 1;
            let mut move_to = None;
            if let Some(rest) = lines
                .get(i)
                .filter(|_| i < body_end)
                .and_then(|l| l.trim().strip_prefix(MOVE))
            {
                move_to = Some(path_of(rest, i + 1, MOVE)?);
                i += 1;
            }
            let (hunks, next) = parse_chunks(lines, i, body_end)?;
            if hunks.is_empty() && move_to.is_none() {
                return Err(ParseError::new(
                    line_no,
                    format!(
                        "`*** Update File: {path}` has no changes: give at least one chunk (`@@` and ` `, `-`, `+` \
                         lines), or `*** Move to:` to rename the file"
                    ),
                ));
            }
            ops.push(Op {
                path,
                alternatives: Vec::new(),
                kind: OpKind::Update {
                    hunks,
                    move_to,
                    create_if_missing: false,
                },
                patch_line: line_no,
            });
            i = next;
        } else {
            return Err(ParseError::new(
                line_no,
                format!(
                    "`{t}` is not a valid file operation; each starts with `*** Add File: path`, `*** Delete File: \
                     path` or `*** Update File: path`"
                ),
            ));
        }
    }
    Ok(ops)
}

/// A unified-diff hunk header inside an apply_patch chunk (`-12,3 +12,4 @@ ...`): the old start line.
fn unified_header(anchor: &str) -> Option<usize> {
    let rest = anchor.strip_prefix('-')?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() || !rest.contains('+') {
        return None;
    }
    digits.parse().ok()
}

/// The chunks of an Update File section, from line `i` up to the next file operation.
fn parse_chunks(lines: &[&str], mut i: usize, end: usize) -> Result<(Vec<Hunk>, usize), ParseError> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut cur: Option<Hunk> = None;
    // Whether the current chunk's last lines came from empty patch lines (soft context).
    let mut soft_tail = 0usize;
    let finish = |cur: &mut Option<Hunk>, hunks: &mut Vec<Hunk>, soft_tail: &mut usize| -> Result<(), ParseError> {
        if let Some(mut h) = cur.take() {
            // Empty lines at the end of a chunk are separators more often than content.
            let keep = h.lines.len() - *soft_tail;
            h.lines.truncate(keep);
            if h.lines.is_empty() {
                return Err(ParseError::new(
                    h.patch_line,
                    "this chunk has no lines: after `@@`, give ` ` (unchanged), `-` (removed) and `+` (added) lines",
                ));
            }
            hunks.push(h);
        }
        *soft_tail = 0;
        Ok(())
    };
    while i < end {
        let raw = lines[i];
        let t = raw.trim();
        let line_no = i + 1;
        if is_op_header(t) {
            break;
        }
        if t == EOF {
            match cur.as_mut() {
                Some(h) if !h.lines.is_empty() => h.at_eof = true,
                _ => {
                    return Err(ParseError::new(
                        line_no,
                        "`*** End of File` must follow the lines of a chunk",
                    ))
                }
            }
            finish(&mut cur, &mut hunks, &mut soft_tail)?;
            i += 1;
            continue;
        }
        if let Some(after) = t.strip_prefix("@@") {
            let anchor = after.trim();
            // A new chunk, unless the current one has no lines yet (stacked `@@` lines).
            if cur.as_ref().is_some_and(|h| !h.lines.is_empty()) {
                finish(&mut cur, &mut hunks, &mut soft_tail)?;
            }
            let h = cur.get_or_insert_with(|| Hunk {
                patch_line: line_no,
                ..Hunk::default()
            });
            if let Some(start) = unified_header(anchor) {
                h.hint = Some(start);
            } else if !anchor.is_empty() && anchor != "@@" {
                h.anchors.push(anchor.to_string());
            }
            i += 1;
            continue;
        }
        let (tag, content) = match raw.chars().next() {
            None => (Tag::Context, ""),
            Some(' ') => (Tag::Context, &raw[1..]),
            Some('+') => (Tag::Added, &raw[1..]),
            Some('-') => (Tag::Removed, &raw[1..]),
            _ if t.is_empty() => (Tag::Context, ""),
            _ => {
                return Err(ParseError::new(
                    line_no,
                    format!(
                        "`{raw}` is not a chunk line: every line of an Update File chunk starts with ` ` (unchanged), \
                         `-` (removed) or `+` (added), and chunks start with `@@`"
                    ),
                ))
            }
        };
        if raw.is_empty() || (t.is_empty() && !raw.starts_with(' ')) {
            if cur.is_none() {
                // Empty lines between chunks separate them.
                i += 1;
                continue;
            }
            soft_tail += 1;
        } else {
            soft_tail = 0;
        }
        let h = cur.get_or_insert_with(|| Hunk {
            patch_line: line_no,
            ..Hunk::default()
        });
        h.lines.push((tag, content.to_string()));
        i += 1;
    }
    finish(&mut cur, &mut hunks, &mut soft_tail)?;
    Ok((hunks, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(ops: &[Op]) -> &[Hunk] {
        match &ops[0].kind {
            OpKind::Update { hunks, .. } => hunks,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn grammar() {
        let ops = parse(
            "*** Begin Patch\n*** Add File: a.txt\n+one\n+\n+two\n*** Delete File: b.txt\n*** Update File: c.txt\n\
             *** Move to: d.txt\n@@ class A\n@@   def f():\n     x = 1\n-    y = 2\n+    y = 3\n\n@@\n-z\n+Z\n*** End \
             of File\n*** End Patch\n",
        )
        .unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(
            ops[0].kind,
            OpKind::Add {
                content: "one\n\ntwo\n".into()
            }
        );
        assert_eq!(ops[1].kind, OpKind::Delete { hunks: vec![] });
        let OpKind::Update { hunks, move_to, .. } = &ops[2].kind else {
            panic!()
        };
        assert_eq!(move_to.as_deref(), Some("d.txt"));
        assert_eq!(hunks.len(), 2);
        assert_eq!(hunks[0].anchors, vec!["class A", "def f():"]);
        assert_eq!(hunks[0].old_lines(), vec!["    x = 1", "    y = 2"]);
        assert_eq!(hunks[0].new_lines(), vec!["    x = 1", "    y = 3"]);
        assert!(!hunks[0].at_eof && hunks[1].at_eof);
    }

    #[test]
    fn tolerances() {
        let p = "<<'EOF'\r\n *** Begin Patch\r\n  *** Update File: f\r\n@@ -3,2 +3,2 @@\r\n-a\r\n+b\r\n*** End Patch \r\nEOF\r\n";
        let ops = parse(p).unwrap();
        assert_eq!(ops[0].path, "f");
        assert_eq!(update(&ops)[0].hint, Some(3));
        assert_eq!(update(&ops)[0].old_lines(), vec!["a"]);
        let ops =
            parse("apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: f\n-a\n+b\n*** End Patch\nPATCH").unwrap();
        assert_eq!(update(&ops)[0].new_lines(), vec!["b"]);
        let ops = parse("```\n*** Begin Patch\n*** Update File: f\n@@\n x\n\n-a\n+b\n\n\n*** End Patch\n```").unwrap();
        assert_eq!(update(&ops)[0].old_lines(), vec!["x", "", "a"]);
    }

    #[test]
    fn cd_before_the_heredoc() {
        let p =
            "cd sub/dir && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: f.txt\n*** Move to: g.txt\n-a\n+b\n\
                 *** Add File: ./n.txt\n+x\n*** End Patch\nEOF\n";
        let ops = parse(p).unwrap();
        assert_eq!(ops[0].path, "sub/dir/f.txt");
        assert!(matches!(&ops[0].kind, OpKind::Update { move_to: Some(t), .. } if t == "sub/dir/g.txt"));
        assert_eq!(ops[1].path, "sub/dir/n.txt");
        let ops =
            parse("cd \"my dir\" && apply_patch <<\"EOF\"\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF")
                .unwrap();
        assert_eq!(ops[0].path, "my dir/a");
        // Any other command in front, or quotes that do not pair, is refused.
        for p in [
            "rm -rf x && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
            "cd d; apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
            "cd d && cat x && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
            "apply_patch <<'EOF\"\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEND",
        ] {
            assert_eq!(
                parse(p).unwrap_err().line,
                if p.ends_with("END") { 5 } else { 1 },
                "{p}"
            );
        }
    }

    #[test]
    fn prose_with_angle_brackets_is_not_a_heredoc() {
        let ops = parse("Shift x << 2 as before:\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n").unwrap();
        assert_eq!(ops[0].path, "a");
        assert!(parse("cat <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF").is_err());
    }

    #[test]
    fn without_begin_and_end_markers() {
        let ops = parse("*** Update File: f\n@@\n-a\n+b\n").unwrap();
        assert_eq!(update(&ops)[0].new_lines(), vec!["b"]);
        let ops = parse("*** Update File: f\n-a\n+b\n*** End Patch\n").unwrap();
        assert_eq!(update(&ops)[0].old_lines(), vec!["a"]);
        // The begin marker without the end marker: the patch may be cut off.
        assert!(parse("*** Begin Patch\n*** Update File: f\n-a\n+b\n").is_err());
        // Prose before a bare section is in doubt.
        assert!(parse("Here it is\n*** Update File: f\n-a\n+b\n").is_err());
    }

    #[test]
    fn errors() {
        for (p, line) in [
            ("bad", 1),
            ("*** Begin Patch\n*** Update File: f\n@@\n-a", 4),
            ("*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch", 2),
            ("*** Begin Patch\n*** Update File: f\n*** End Patch", 2),
            ("*** Begin Patch\n*** Update File: f\n@@\nfoo\n*** End Patch", 4),
        ] {
            assert_eq!(parse(p).unwrap_err().line, line, "{p}");
        }
        assert!(parse("*** Begin Patch\n*** End Patch").unwrap().is_empty());
    }
}
