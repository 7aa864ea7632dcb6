//! Omission placeholders: a `newText` line that stands for code the model left out
//! (`// ... existing code ...`, `# ... rest of the file ...`, `(rest of methods ...)`, a bare `...`).
//! Written into a file, such a line deletes the code it stands for; an edit holding one where
//! `oldText` has nothing like it is refused.

use crate::text::lines::split_model_lines;

/// Words that say a marker stands for code left out.
const OMISSION_WORDS: [&str; 12] = [
    "existing",
    "rest",
    "remaining",
    "unchanged",
    "omitted",
    "same",
    "previous",
    "other",
    "code",
    "methods",
    "functions",
    "remainder",
];

/// The first line of `new` that is an omission placeholder `old` does not hold too: its one-based
/// line number in `new` and its text (trimmed). `None` when there is none (a marker kept on both
/// sides is the file's own text).
///
/// A placeholder is a line made only of an ellipsis (`...` or `…`), optionally inside comment
/// markers or brackets, or an ellipsis with two or more words among which one says what was left
/// out (`existing`, `rest`, `remaining`, `unchanged`, …), inside comment markers or brackets. Code
/// is not: spread syntax (`...args`, `f(...rest)`), and a bare `...` that is the body of a block
/// `newText` opens itself (a line ending with `:` that `old` does not have: a Python stub).
pub fn omission_placeholder(old: &str, new: &str) -> Option<(usize, String)> {
    let new_lines = split_model_lines(new);
    let old_lines: Vec<&str> = split_model_lines(old).into_iter().map(|l| l.0).collect();
    let kept: Vec<&str> = old_lines
        .iter()
        .filter(|l| is_omission_marker(l))
        .map(|l| l.trim())
        .collect();
    let mut previous: Option<&str> = None;
    for (i, (line, _)) in new_lines.iter().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if is_omission_marker(line) && !kept.contains(&trimmed) {
            let opens_new_block = is_bare_ellipsis(trimmed)
                && previous.is_some_and(|p| p.trim_end().ends_with(':') && !old_lines.contains(&p));
            if !opens_new_block {
                return Some((i + 1, trimmed.to_string()));
            }
        }
        previous = Some(line);
    }
    None
}

fn is_bare_ellipsis(trimmed: &str) -> bool {
    trimmed == "..." || trimmed == "…"
}

/// The text inside comment markers or brackets, and whether there were any.
fn unwrap_markers(trimmed: &str) -> (&str, bool) {
    const PAIRS: [(&str, &str); 6] = [
        ("/*", "*/"),
        ("<!--", "-->"),
        ("{/*", "*/}"),
        ("(", ")"),
        ("[", "]"),
        ("{", "}"),
    ];
    for (open, close) in PAIRS {
        if let Some(inner) = trimmed.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
            return (inner.trim(), true);
        }
    }
    for lead in ["///", "//", "#", "--", ";", "%", "*"] {
        if let Some(inner) = trimmed.strip_prefix(lead) {
            return (inner.trim(), true);
        }
    }
    (trimmed, false)
}

/// Whether `line` is an omission marker: a line that stands for code left out rather than code —
/// an ellipsis alone (`...`, `…`), optionally inside comment markers or brackets (`// ...`,
/// `/* ... */`, `<!-- ... -->`, `# ...`, `-- ...`), or an ellipsis standing apart in a phrase of two
/// words or more, one of which says what was left out (`// ... existing code ...`,
/// `(rest of methods ...)`), inside comment markers or brackets. At any indentation. Spread syntax
/// (`...args`), ellipses inside code (`f(a...)`) and a comment holding a backtick or a double quote
/// (prose quoting code: `` /// see `// ... existing code ...` ``) are not markers.
///
/// The one place that decides what a marker line is: the `placeholder` check, the `elision` tier
/// and the lazy-snippet tool all ask it. Whether such a line is the file's own code (Python's `...`
/// body) is for the caller to decide by context: a marker that matches the file as written is code.
pub(crate) fn is_omission_marker(line: &str) -> bool {
    let trimmed = line.trim();
    if is_bare_ellipsis(trimmed) {
        return true;
    }
    let (inner, marked) = unwrap_markers(trimmed);
    if !marked || !(inner.contains("...") || inner.contains('…')) {
        return false;
    }
    // A placeholder is never quoted: an ellipsis in a code span or a string (a doc comment
    // quoting `// ... existing code ...`, or `{"ok": true, ...}`) is prose about code.
    if inner.contains(['`', '"']) {
        return false;
    }
    let words: Vec<String> = inner
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect();
    if words.is_empty() {
        // `// ...`, `/* … */`: an ellipsis alone in a comment.
        return inner.chars().all(|c| c == '.' || c == '…' || c.is_whitespace());
    }
    // A spread (`...args`) hugs its word; a placeholder's ellipsis stands apart or closes a phrase.
    let spread = inner.split_whitespace().any(|w| {
        let rest = w.trim_start_matches(['.', '…']);
        rest.len() < w.len() && rest.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_')
    });
    words.len() >= 2 && !spread && stands_apart(inner) && words.iter().any(|w| OMISSION_WORDS.contains(&w.as_str()))
}

/// Whether an ellipsis of `inner` stands apart as a placeholder's does: between blanks, the line's
/// ends or the brackets around the phrase. One inside code (`$args\...)`, `f(a...)`) does not.
fn stands_apart(inner: &str) -> bool {
    let chars: Vec<char> = inner.chars().collect();
    let is_dot = |c: char| c == '.' || c == '…';
    let mut i = 0;
    while i < chars.len() {
        if !is_dot(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_dot(chars[i]) {
            i += 1;
        }
        let ellipsis = chars[start..i].contains(&'…') || i - start >= 3;
        let before = start.checked_sub(1).map(|b| chars[b]);
        let after = chars.get(i).copied();
        let open_side = before.is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '[' | '{'));
        let close_side = after.is_none_or(|c| c.is_whitespace() || matches!(c, ')' | ']' | '}' | ',' | ':'));
        if ellipsis && open_side && close_side {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_models_write_are_found() {
        for marker in [
            "// ... existing code ...",
            "    # ... rest of the file ...",
            "(rest of methods ...)",
            "...",
            "  …",
            "/* ... */",
            "// ...",
            "<!-- ... rest of the page ... -->",
            "// … remaining functions unchanged …",
            "# ... existing imports",
        ] {
            let new = format!("fn a() {{}}\n{marker}\nfn b() {{}}\n");
            assert_eq!(
                omission_placeholder("fn a() {}\nfn c() {}\n", &new).map(|p| p.0),
                Some(2),
                "{marker}"
            );
        }
    }

    #[test]
    fn code_and_kept_markers_are_not() {
        for code in [
            "f(...args);",
            "const all = [...rest, x];",
            "return { ...other, a: 1 };",
            "// see the docs for the rest",
            "...props",
            "(...args) => go(...args)",
            "// ...other",
            "print(\"... rest of the output ...\")",
            // A doc comment quoting code (anyhow 0f741692, found by the replay harness).
            "/// <code>return Err([anyhow!($args\\...)][anyhow!])</code>.",
            // Doc comments that quote a marker or elide a JSON object (our own error.rs and
            // surgical-tool's lib.rs, found by the replay harness).
            "/// `newText` holds an omission placeholder (`// ... existing code ...`) that `oldText` lacks.",
            "/// `{\"ok\": false, \"text\": ..., \"error\": {\"code\", \"message\", ...}}`.",
        ] {
            assert_eq!(omission_placeholder("x\n", &format!("{code}\n")), None, "{code}");
        }
        // The marker in oldText too: the file holds it. Another marker is still refused.
        assert_eq!(
            omission_placeholder("a\n// ... existing code ...\n", "b\n// ... existing code ...\n"),
            None
        );
        assert_eq!(
            omission_placeholder("(rest of methods ...)", "(rest of methods ...)\n(unchanged code ...)"),
            Some((2, "(unchanged code ...)".into()))
        );
        // A Python stub newText opens itself.
        assert_eq!(
            omission_placeholder("x = 1\n", "x = 1\ndef f(self) -> int:\n    ...\n"),
            None
        );
        // A body the model replaced by `...` is an omission.
        assert_eq!(
            omission_placeholder("def f(self):\n    return 1\n", "def f(self):\n    ...\n"),
            Some((2, "...".into()))
        );
    }
}
