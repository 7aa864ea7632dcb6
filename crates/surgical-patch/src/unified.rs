//! Unified diffs, as `git diff` and `diff -u` write them (and as models write them, with wrong line
//! counts in hunk headers, bare `@@` headers, empty lines for empty unchanged lines, no file header
//! when the call names the file).
//!
//! Supported: `diff --git` headers with `new file mode`, `deleted file mode`, `rename from`/`rename
//! to`; `--- a/x` / `+++ b/x` (prefixes `a/` and `b/` stripped; `/dev/null` for added and deleted
//! files; a tab and timestamp after the name ignored; C-quoted names); `\ No newline at end of file`.
//! Hunk line counts are not trusted: a hunk runs as long as its lines start with ` `, `-`, `+` or
//! `\`; the counts only decide whether an empty line inside a hunk is an empty unchanged line or the
//! end of the hunk. The old start line becomes a hint (see `place`). Anything between files (a commit
//! message, `index` lines, a Markdown fence) is skipped. Binary patches and copies are refused.

use super::{patch_lines, Hunk, Op, OpKind, ParseError, Tag};

#[derive(Default)]
struct Section {
    line: usize,
    git: Option<(String, String)>,
    /// `---` / `+++` names; `Some(None)` is `/dev/null`.
    old: Option<Option<String>>,
    new: Option<Option<String>>,
    rename_from: Option<String>,
    rename_to: Option<String>,
    new_file: bool,
    deleted_file: bool,
    hunks: Vec<Hunk>,
}

/// A C-quoted name (`"a/x\ty"`) unquoted; other names as they are.
fn unquote(name: &str) -> String {
    let Some(inner) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) else {
        return name.to_string();
    };
    let mut bytes = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('n') => bytes.push(b'\n'),
            Some('t') => bytes.push(b'\t'),
            Some('r') => bytes.push(b'\r'),
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(x) => {
                            v = v * 8 + x;
                            chars.next();
                        }
                        None => break,
                    }
                }
                bytes.push(v as u8);
            }
            Some(other) => {
                let mut buf = [0u8; 4];
                bytes.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
            }
            None => bytes.push(b'\\'),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The name on a `---`/`+++` line: `None` for `/dev/null`.
fn header_name(rest: &str) -> Option<String> {
    let rest = rest.trim_end();
    let name = if rest.starts_with('"') {
        // A quoted name ends at its closing quote.
        let mut end = rest.len();
        let mut escaped = false;
        for (i, c) in rest.char_indices().skip(1) {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    end = i + 1;
                    break;
                }
                _ => escaped = false,
            }
        }
        unquote(&rest[..end])
    } else {
        rest.split('\t').next().unwrap_or("").trim_end().to_string()
    };
    (name != "/dev/null" && !name.is_empty()).then_some(name)
}

/// The two names of `diff --git a/x b/y`.
fn git_names(rest: &str) -> Option<(String, String)> {
    let rest = rest.trim();
    if let Some(inner) = rest.strip_prefix('"') {
        let old = header_name(rest)?;
        let quoted_len = inner.find('"').map(|i| i + 2)?;
        let new = header_name(rest[quoted_len..].trim())?;
        return Some((old, new));
    }
    // Names may hold spaces: prefer the split where both halves name the same file.
    let splits: Vec<usize> = rest.match_indices(" b/").map(|(i, _)| i).collect();
    let pick = splits
        .iter()
        .copied()
        .find(|&i| rest[..i].strip_prefix("a/") == Some(&rest[i + 3..]))
        .or_else(|| splits.last().copied())?;
    Some((rest[..pick].to_string(), rest[pick + 1..].to_string()))
}

/// `@@ -12,3 +12,4 @@`: the old start and count, the new count (each if given).
fn hunk_header(line: &str) -> (Option<usize>, Option<usize>, Option<usize>) {
    let body = line.trim_start_matches('@').trim();
    let mut old_start = None;
    let mut old_count = None;
    let mut new_count = None;
    for part in body.split_whitespace() {
        let (sign, rest) = match part.chars().next() {
            Some(c @ ('-' | '+')) => (c, &part[1..]),
            _ => continue,
        };
        let mut nums = rest.splitn(2, ',');
        let start = nums.next().and_then(|n| n.parse::<usize>().ok());
        let count = match nums.next() {
            Some(n) => n.parse::<usize>().ok(),
            None => start.map(|_| 1),
        };
        if start.is_none() {
            continue;
        }
        if sign == '-' && old_start.is_none() {
            old_start = start;
            old_count = count;
        } else if sign == '+' && new_count.is_none() {
            new_count = count;
            break;
        }
    }
    (old_start, old_count, new_count)
}

fn is_file_header(lines: &[&str], i: usize) -> bool {
    lines[i].starts_with("--- ") && lines.get(i + 1).is_some_and(|n| n.starts_with("+++ "))
}

/// Parses the hunk whose header is line `i`; returns it and the index after it.
fn parse_hunk(lines: &[&str], i: usize) -> Result<(Hunk, usize), ParseError> {
    let (old_start, old_count, new_count) = hunk_header(lines[i]);
    let mut hunk = Hunk {
        hint: old_start,
        patch_line: i + 1,
        ..Hunk::default()
    };
    let (mut old_n, mut new_n) = (0usize, 0usize);
    let (mut old_no_nl, mut new_no_nl) = (false, false);
    let mut soft = 0usize;
    let mut j = i + 1;
    while j < lines.len() {
        let l = lines[j];
        if l.starts_with("@@") || l.starts_with("diff --git ") || is_file_header(lines, j) {
            break;
        }
        match l.chars().next() {
            Some(' ') => {
                hunk.lines.push((Tag::Context, l[1..].to_string()));
                old_n += 1;
                new_n += 1;
                soft = 0;
            }
            Some('-') => {
                hunk.lines.push((Tag::Removed, l[1..].to_string()));
                old_n += 1;
                soft = 0;
            }
            Some('+') => {
                hunk.lines.push((Tag::Added, l[1..].to_string()));
                new_n += 1;
                soft = 0;
            }
            Some('\\') => match hunk.lines.last().map(|(t, _)| *t) {
                Some(Tag::Removed) => old_no_nl = true,
                Some(Tag::Added) => new_no_nl = true,
                Some(Tag::Context) => {
                    old_no_nl = true;
                    new_no_nl = true;
                }
                None => {}
            },
            _ if l.trim_end_matches('\r').is_empty() => {
                // An empty line: an empty unchanged line (models and some tools drop the space), unless
                // the header's counts are already met.
                if let (Some(oc), Some(nc)) = (old_count, new_count) {
                    if old_n >= oc && new_n >= nc {
                        break;
                    }
                }
                hunk.lines.push((Tag::Context, l.to_string()));
                old_n += 1;
                new_n += 1;
                soft += 1;
            }
            _ => break,
        }
        j += 1;
    }
    // Empty lines at the end are separators unless the counts need them.
    let needed = old_count.map_or(0, |oc| soft.saturating_sub(old_n.saturating_sub(oc)));
    let drop = soft - needed.min(soft);
    hunk.lines.truncate(hunk.lines.len() - drop);
    if hunk.lines.is_empty() {
        return Err(ParseError::new(
            i + 1,
            "this hunk has no lines: after `@@ ... @@`, give ` ` (unchanged), `-` (removed) and `+` (added) lines",
        ));
    }
    hunk.final_newline = if new_no_nl {
        Some(false)
    } else if old_no_nl {
        Some(true)
    } else {
        None
    };
    Ok((hunk, j))
}

/// `name` without its first path component, if it has one more.
fn strip_component(name: &str) -> Option<String> {
    let (_, rest) = name.split_once('/')?;
    (!rest.is_empty()).then(|| rest.to_string())
}

fn finish(s: Section, default_path: Option<&str>, ops: &mut Vec<Op>) -> Result<(), ParseError> {
    let is_git = s.git.is_some();
    let (git_old, git_new) = match &s.git {
        Some((o, n)) => (Some(o.clone()), Some(n.clone())),
        None => (None, None),
    };
    let old = match &s.old {
        Some(n) => n.clone(),
        None => git_old,
    };
    let new = match &s.new {
        Some(n) => n.clone(),
        None => git_new,
    };
    let added = s.new_file || matches!(s.old, Some(None));
    let deleted = s.deleted_file || matches!(s.new, Some(None));
    // git's `a/` and `b/` prefixes: stripped when both sides (or the only side) carry them.
    let prefixed = |n: &Option<String>, p: &str| n.as_deref().is_none_or(|n| n.starts_with(p));
    let strip = is_git || (prefixed(&old, "a/") && prefixed(&new, "b/") && (old.is_some() || new.is_some()));
    let clean = |n: Option<String>, p: &str| {
        n.map(|n| {
            if strip {
                n.strip_prefix(p).map(str::to_string).unwrap_or(n)
            } else {
                n
            }
        })
    };
    let old = clean(old, "a/");
    let new = clean(new, "b/");
    let line = s.line;
    if added && deleted {
        return Err(ParseError::new(
            line,
            "this file section both adds and deletes the file",
        ));
    }
    if added {
        let path = new.ok_or_else(|| ParseError::new(line, "the added file has no name (`+++ b/path`)"))?;
        let mut content = String::new();
        let mut final_newline = true;
        for h in &s.hunks {
            if h.lines.iter().any(|(t, _)| *t != Tag::Added) {
                return Err(ParseError::new(
                    h.patch_line,
                    format!(
                        "{path} is a new file (`--- /dev/null`), so its hunk may only add lines (`+`), but this \
                         hunk has unchanged or removed lines. To change the existing file, name it on both header \
                         lines (`--- a/{path}`, `+++ b/{path}`)."
                    ),
                ));
            }
            for line in h.new_lines() {
                content.push_str(line);
                content.push('\n');
            }
            final_newline = h.final_newline != Some(false);
        }
        if !final_newline {
            content.pop();
        }
        ops.push(Op {
            path,
            alternatives: Vec::new(),
            kind: OpKind::Add { content },
            patch_line: line,
        });
        return Ok(());
    }
    if deleted {
        let path = old.ok_or_else(|| ParseError::new(line, "the deleted file has no name (`--- a/path`)"))?;
        ops.push(Op {
            path,
            alternatives: Vec::new(),
            kind: OpKind::Delete { hunks: s.hunks },
            patch_line: line,
        });
        return Ok(());
    }
    if let (Some(from), Some(to)) = (&s.rename_from, &s.rename_to) {
        ops.push(Op {
            path: from.clone(),
            alternatives: Vec::new(),
            kind: OpKind::Update {
                hunks: s.hunks,
                move_to: Some(to.clone()),
                create_if_missing: false,
            },
            patch_line: line,
        });
        return Ok(());
    }
    if s.hunks.is_empty() {
        // A mode change or an empty section: nothing for the content.
        return Ok(());
    }
    let (path, mut alternatives) =
        match (new, old) {
            (Some(n), Some(o)) => (n, vec![o]),
            (Some(n), None) | (None, Some(n)) => (n, Vec::new()),
            (None, None) => match default_path {
                Some(p) => (p.to_string(), Vec::new()),
                None => return Err(ParseError::new(
                    line,
                    "these hunks name no file: put `--- a/path` and `+++ b/path` before them (or give `path` in the \
                     call)",
                )),
            },
        };
    if !strip {
        let extra: Vec<String> = std::iter::once(&path)
            .chain(alternatives.iter())
            .filter_map(|n| strip_component(n))
            .collect();
        alternatives.extend(extra);
    }
    let mut seen = vec![path.clone()];
    alternatives.retain(|a| {
        let fresh = !seen.contains(a);
        seen.push(a.clone());
        fresh
    });
    ops.push(Op {
        path,
        alternatives,
        kind: OpKind::Update {
            hunks: s.hunks,
            move_to: None,
            create_if_missing: false,
        },
        patch_line: line,
    });
    Ok(())
}

/// Parses a unified diff; `default_path` is the file for hunks without a file header.
///
/// A CR before a line's `\n` is part of the line (git writes the lines of a CRLF file so, and a
/// change of line endings as `-x\r` / `+x`), unless the patch itself came with CRLF line breaks
/// (its `@@` lines end with a CR), when one CR per line is the patch's own line break.
pub(crate) fn parse(text: &str, default_path: Option<&str>) -> Result<Vec<Op>, ParseError> {
    let crlf_patch = text
        .split('\n')
        .filter(|l| l.starts_with("@@"))
        .any(|l| l.ends_with('\r'));
    let lines: Vec<&str> = if crlf_patch {
        patch_lines(text)
    } else {
        text.split('\n').collect()
    };
    let mut ops = Vec::new();
    let mut cur: Option<Section> = None;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if let Some(rest) = l.strip_prefix("diff --git ") {
            if let Some(s) = cur.take() {
                finish(s, default_path, &mut ops)?;
            }
            cur = Some(Section {
                line: i + 1,
                git: git_names(rest),
                ..Section::default()
            });
            i += 1;
            continue;
        }
        if is_file_header(&lines, i) {
            let fresh = cur.as_ref().is_none_or(|s| s.old.is_some() || !s.hunks.is_empty());
            if fresh {
                if let Some(s) = cur.take() {
                    finish(s, default_path, &mut ops)?;
                }
                cur = Some(Section {
                    line: i + 1,
                    ..Section::default()
                });
            }
            let s = cur.as_mut().expect("a section is open");
            s.old = Some(header_name(&l[4..]));
            s.new = Some(header_name(&lines[i + 1][4..]));
            i += 2;
            continue;
        }
        if l.starts_with("@@") {
            let (hunk, next) = parse_hunk(&lines, i)?;
            cur.get_or_insert_with(|| Section {
                line: i + 1,
                ..Section::default()
            })
            .hunks
            .push(hunk);
            i = next;
            continue;
        }
        if let Some(s) = cur.as_mut().filter(|s| s.hunks.is_empty() && s.old.is_none()) {
            let t = l.trim_end();
            if t.starts_with("new file mode") {
                s.new_file = true;
            } else if t.starts_with("deleted file mode") {
                s.deleted_file = true;
            } else if let Some(n) = t.strip_prefix("rename from ") {
                s.rename_from = Some(unquote(n));
            } else if let Some(n) = t.strip_prefix("rename to ") {
                s.rename_to = Some(unquote(n));
            } else if t.starts_with("copy from ") || t.starts_with("copy to ") {
                return Err(ParseError::new(
                    i + 1,
                    "copies (`copy from`/`copy to`) are not supported; add the new file with its whole content",
                ));
            }
        }
        if l.starts_with("GIT binary patch") || (l.starts_with("Binary files ") && l.trim_end().ends_with(" differ")) {
            return Err(ParseError::new(
                i + 1,
                "binary patches are not supported: surgical edits text files",
            ));
        }
        i += 1;
    }
    if let Some(s) = cur.take() {
        finish(s, default_path, &mut ops)?;
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_diff_with_every_kind_of_file() {
        let text = "diff --git a/src/x.rs b/src/x.rs\nindex 1..2 100644\n--- a/src/x.rs\n+++ b/src/x.rs\n@@ -1,3 +1,3 \
                    @@ fn main\n a\n-b\n+B\n c\ndiff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ \
                    b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\ndiff --git a/old.txt \
                    b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\ndiff --git \
                    a/p q.txt b/r.txt\nsimilarity index 90%\nrename from p q.txt\nrename to r.txt\n";
        let ops = parse(text, None).unwrap();
        assert_eq!(ops.len(), 4);
        assert_eq!(ops[0].path, "src/x.rs");
        let OpKind::Update { hunks, .. } = &ops[0].kind else {
            panic!()
        };
        assert_eq!(hunks[0].hint, Some(1));
        assert_eq!(hunks[0].old_lines(), vec!["a", "b", "c"]);
        assert_eq!(
            ops[1].kind,
            OpKind::Add {
                content: "one\ntwo".into()
            }
        );
        assert_eq!(ops[2].path, "old.txt");
        assert!(matches!(&ops[2].kind, OpKind::Delete { hunks } if hunks.len() == 1));
        assert_eq!(ops[3].path, "p q.txt");
        assert!(matches!(&ops[3].kind, OpKind::Update { move_to: Some(t), .. } if t == "r.txt"));
    }

    #[test]
    fn plain_diff_u_and_model_mistakes() {
        let text =
            "--- lib.py\t2024-01-01 10:00:00\n+++ lib.py\t2024-01-02 10:00:00\n@@ -10,2 +10,9 @@\n x\n\n-y\n+z\n\n\
                    Some prose after it.\n";
        let ops = parse(text, None).unwrap();
        assert_eq!(ops[0].path, "lib.py");
        let OpKind::Update { hunks, .. } = &ops[0].kind else {
            panic!()
        };
        assert_eq!(hunks[0].old_lines(), vec!["x", "", "y"]);
        assert_eq!(hunks[0].new_lines(), vec!["x", "", "z"]);
        // Bare hunks take the call's path.
        let ops = parse("@@ @@\n-a\n+b\n", Some("f.txt")).unwrap();
        assert_eq!(ops[0].path, "f.txt");
        assert!(parse("@@ @@\n-a\n+b\n", None).is_err());
        assert_eq!(hunk_header("@@ -5 +5,2 @@"), (Some(5), Some(1), Some(2)));
        assert_eq!(header_name("\"a/x\\ty\""), Some("a/x\ty".into()));
        assert_eq!(git_names("a/x y b/x y"), Some(("a/x y".into(), "b/x y".into())));
    }
}
