//! Omission placeholders: a `newText` line that stands for code the model left out
//! (`// ... existing code ...`, `# ... rest of the file ...`, `(rest of methods ...)`, a bare `...`).
//! Written into a file, such a line deletes the code it stands for; an edit holding one where
//! `oldText` has nothing like it is refused. What a marker line is, is the one grammar of
//! [`crate::marker`].

use crate::text::lines::split_model_lines;
use crate::text::marker::{self, Phrase, Strength, TextKind};

/// [`omission_placeholder_in`] for code ([`TextKind::Code`]), the kind to assume when the file's
/// name is unknown: every marker the grammar reads is refused (a bare `...` too, unless it is the
/// body of a block `newText` opens itself).
pub fn omission_placeholder(old: &str, new: &str) -> Option<(usize, String)> {
    omission_placeholder_in(old, new, TextKind::Code)
}

/// The first line of `new` that is an omission placeholder `old` does not hold too, in a file of
/// `kind`: its one-based line number in `new` and its text (trimmed), the line judged. `None` when
/// there is none (a marker kept on both sides is the file's own text).
///
/// A placeholder is a line the marker grammar ([`marker::read`]) reads as a marker:
/// - a [`Strength::Strong`] one (`// ... existing code ...`, `(rest of methods ...)`, `# ...` in
///   code, `.. ...` in reStructuredText, `... existing rows ...` anywhere), always;
/// - a [`Strength::Weak`] one (a bare `...` with no comment syntax) only in code, and not when it
///   is the body of a block `newText` opens itself (a line ending with `:` that `old` does not
///   have: a Python stub). In prose (Markdown, reStructuredText, plain text) a weak one is content:
///   a `...` line in documentation is text, never refused (issue 28, class 4).
///
/// Code is never one: spread syntax (`...args`, `f(...rest)`), a comment quoting code or a marker
/// (a backtick or a double quote).
pub fn omission_placeholder_in(old: &str, new: &str, kind: TextKind) -> Option<(usize, String)> {
    let new_lines = split_model_lines(new);
    let old_lines: Vec<&str> = split_model_lines(old).into_iter().map(|l| l.0).collect();
    let kept: Vec<&str> = old_lines
        .iter()
        .filter(|l| marker::read(l, kind).is_some())
        .map(|l| l.trim())
        .collect();
    let mut previous: Option<&str> = None;
    for (i, (line, _)) in new_lines.iter().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(m) = marker::read(line, kind) {
            if !kept.contains(&trimmed) {
                let refused = match m.strength {
                    Strength::Strong => true,
                    Strength::Weak => {
                        let opens_new_block = m.phrase == Phrase::Bare
                            && previous.is_some_and(|p| p.trim_end().ends_with(':') && !old_lines.contains(&p));
                        !kind.is_prose() && !opens_new_block
                    }
                };
                if refused {
                    return Some((i + 1, trimmed.to_string()));
                }
            }
        }
        previous = Some(line);
    }
    None
}

/// Whether `line` is an omission marker in code (any strength): what the `elision` tier cuts a
/// needle at. At any indentation. Whether such a line is the file's own code (Python's `...`
/// body) is for the caller to decide by context: a marker that matches the file as written is code.
pub(crate) fn is_omission_marker(line: &str) -> bool {
    marker::read(line, TextKind::Code).is_some()
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

    #[test]
    fn a_bare_ellipsis_in_prose_is_content_and_the_judged_line_is_named() {
        // Issue 28, class 4: a `...` line in a docs commit is text.
        for path in ["docs/index.rst", "README.md", "notes.txt", "README"] {
            let kind = TextKind::of_path(path);
            assert_eq!(
                omission_placeholder_in("Then:\n", "Then:\n\n...\n\nDone.\n", kind),
                None,
                "{path}"
            );
            // A worded marker is refused in prose too, naming the line judged.
            assert_eq!(
                omission_placeholder_in("Then:\n", "Then:\n... rest of the document ...\n", kind),
                Some((2, "... rest of the document ...".into())),
                "{path}"
            );
        }
        // In code the bare line is refused.
        assert_eq!(
            omission_placeholder_in("x = 1\n", "x = 1\n...\n", TextKind::Code),
            Some((2, "...".into()))
        );
        // The prose's own comment holding a bare ellipsis is strong.
        assert_eq!(
            omission_placeholder_in("a\n", "a\n.. ...\n", TextKind::ReStructuredText),
            Some((2, ".. ...".into()))
        );
        assert_eq!(omission_placeholder_in("a\n", "a\n# ...\n", TextKind::Markdown), None);
    }

    #[test]
    fn a_worded_placeholder_is_refused_in_every_kind_unless_the_file_has_it_there() {
        // Issue 28, class 4, and issue 31: a placeholder worded as one, with a comment syntax or
        // none, is never written into a file, prose or code; kept on both sides, it is the file's.
        for path in [
            "src/a.rs",
            "a.py",
            "docs/index.rst",
            "README.md",
            "notes.txt",
            "data.csv",
        ] {
            let kind = TextKind::of_path(path);
            for line in [
                "... rest of the function unchanged",
                "// ... existing code ...",
                "    # ... 12 more lines ...",
            ] {
                let old = "fn a() {\n    one();\n}\n";
                let new = format!("fn a() {{\n{line}\n    two();\n}}\n");
                assert_eq!(
                    omission_placeholder_in(old, &new, kind),
                    Some((2, line.trim().to_string())),
                    "{path}: {line}"
                );
                let kept = format!("fn a() {{\n{line}\n    one();\n}}\n");
                assert_eq!(omission_placeholder_in(&kept, &new, kind), None, "{path}: {line}");
            }
        }
    }
}
