//! Every sentence surgical-tool writes about what the engine found, in one place, in the words of the
//! tool that asked: `oldText` for `edit`, "the SEARCH lines" for SEARCH/REPLACE blocks, "the hunk's
//! unchanged and `-` lines" for diffs and `apply_patch` hunks.
//!
//! The engine (`surgical-core`) returns data — the closest regions, the candidates, the tiers — and
//! this module turns it into the messages of the machine contract. The `edit` tool's messages are
//! part of that contract word for word; tests check them.

use surgical_core::fold::describe_char;
use surgical_core::{Closest, EditError, LineDifference, Region, Row};

/// What the caller calls the text to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Vocabulary {
    /// In full, as the subject or object of a sentence: `oldText`, "the SEARCH lines".
    pub old: &'static str,
    /// Before "line"/"lines" and after "your": `oldText`, `SEARCH`, `hunk`.
    pub short: &'static str,
}

/// The `edit` tool's words.
pub(crate) const EDIT: Vocabulary = Vocabulary {
    old: "oldText",
    short: "oldText",
};

/// At most this many rows of a region are shown.
const MAX_SHOWN: usize = 12;

/// Where the text to find most nearly is, and what to do: the last part of a `not_found` message.
pub(crate) fn closest(c: &Closest, v: Vocabulary) -> String {
    let regions = match c {
        Closest::EmptyText => return "The file is empty. Use the write tool to give it content.".to_string(),
        Closest::Regions(regions) if !regions.is_empty() => regions,
        _ => {
            return format!(
                "No line of the file resembles {old}. Read the file again and copy {old} from it exactly.",
                old = v.old
            )
        }
    };
    let mut out = String::from(if regions.len() == 1 {
        "Closest region"
    } else {
        "Closest regions"
    });
    out.push_str(&format!(" (file lines, with what differs from {}):\n", v.old));
    for r in regions {
        out.push_str(&region(r, v));
    }
    out.push_str(&format!(
        "Copy {} exactly from these lines (re-read them if unsure) and retry.",
        v.old
    ));
    out
}

fn region(r: &Region, v: Vocabulary) -> String {
    let rows: Vec<String> = r.rows.iter().map(|row| self::row(row, v)).collect();
    let shown = rows.len().min(MAX_SHOWN);
    let mut body: String = rows[..shown].concat();
    if rows.len() > shown {
        body.push_str(&format!("       ... ({} more lines)\n", rows.len() - shown));
    }
    format!(
        "lines {}-{} ({} of {} {} lines identical):\n{body}",
        r.lines.0, r.lines.1, r.identical, r.needle_lines, v.short
    )
}

fn row(row: &Row, v: Vocabulary) -> String {
    match row {
        Row::Paired { line, text, differs } => {
            let mark = differs
                .as_ref()
                .map_or(String::new(), |d| format!("   <- {}", difference(d)));
            format!("{line:>6} | {}{mark}\n", shorten(text))
        }
        Row::Missing { needle_line, text } => format!(
            "       - {} line {needle_line} is not in the file here: {:?}\n",
            v.short,
            shorten(text)
        ),
        Row::Extra { line, text } => format!(
            "{line:>6} | {}   <- this file line is not in your {}\n",
            shorten(text),
            v.short
        ),
        // A row kind the engine adds later is at least located.
        other => format!("       {other:?}\n"),
    }
}

/// Why a file line and a line of the text to find differ, in a few words.
fn difference(d: &LineDifference) -> String {
    match d {
        LineDifference::TrailingWhitespace { file, needle } => {
            format!("trailing whitespace differs: the file has {file:?}, you wrote {needle:?}")
        }
        LineDifference::Indentation { file, needle } => format!(
            "indentation differs: the file has {}, you wrote {}",
            describe_ws(file),
            describe_ws(needle)
        ),
        LineDifference::Column {
            needle,
            column,
            file_char,
            needle_char,
        } => format!(
            "you wrote {:?}; first difference at column {column}: the file has {}, you wrote {}",
            shorten(needle),
            describe_char(*file_char),
            describe_char(*needle_char)
        ),
        LineDifference::FileContinues { needle, column } => format!(
            "you wrote {:?}; the file line continues after column {column}",
            shorten(needle)
        ),
        LineDifference::FileEnds { needle, column } => {
            format!("you wrote {:?}; the file line ends at column {column}", shorten(needle))
        }
        other => format!("{other:?}"),
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 120 {
        s.chars().take(120).collect::<String>() + "..."
    } else {
        s.to_string()
    }
}

fn describe_ws(ws: &str) -> String {
    let tabs = ws.chars().filter(|&c| c == '\t').count();
    let spaces = ws.chars().filter(|&c| c == ' ').count();
    let other = ws.chars().count() - tabs - spaces;
    let mut parts = Vec::new();
    if tabs > 0 {
        parts.push(format!("{tabs} tab{}", if tabs == 1 { "" } else { "s" }));
    }
    if spaces > 0 {
        parts.push(format!("{spaces} space{}", if spaces == 1 { "" } else { "s" }));
    }
    if other > 0 {
        parts.push(format!("{other} special space{}", if other == 1 { "" } else { "s" }));
    }
    if parts.is_empty() {
        "no indentation".to_string()
    } else {
        parts.join(" + ")
    }
}

/// The `edit` tool's message for an engine error (after the path and ": ").
pub(crate) fn edit_error(e: &EditError) -> String {
    match e {
        EditError::EmptyOldText { index } => format!(
            "edits[{index}]: oldText is empty. Give the exact text to replace, copied from the file; to create or \
             overwrite a whole file, use the write tool."
        ),
        EditError::NotFound {
            index,
            also_failing,
            closest: near,
        } => {
            let mut out = format!("edits[{index}]: oldText was not found in the file.");
            if !also_failing.is_empty() {
                let list: Vec<String> = also_failing.iter().map(|i| format!("edits[{i}]")).collect();
                out.push_str(&format!(" ({} also not found.)", list.join(", ")));
            }
            out.push('\n');
            out.push_str(&closest(near, EDIT));
            out
        }
        EditError::Ambiguous {
            index,
            tier,
            occurrences,
            total,
        } => {
            let mut out = match tier {
                None => format!(
                    "edits[{index}]: oldText occurs {total} times if line endings, trailing whitespace and special \
                     spaces are ignored (differences you cannot see), so which one you mean is unclear:"
                ),
                Some(t) => format!(
                    "edits[{index}]: oldText occurs {total} times (matching with the `{}` tier), so which one you \
                     mean is unclear:",
                    t.name()
                ),
            };
            for (line, text) in occurrences {
                out.push_str(&format!("\n  line {line}: {text}"));
            }
            if *total > occurrences.len() {
                out.push_str(&format!("\n  ... and {} more", total - occurrences.len()));
            }
            out.push_str(
                "\nAdd surrounding lines to oldText until it is unique, or set replaceAll: true to change every \
                 occurrence.",
            );
            out
        }
        EditError::Overlap { first, second, line } => format!(
            "edits[{first}] and edits[{second}] overlap (near line {line}): each edit must target text that no other \
             edit in the same call touches. Merge them into one edit."
        ),
        EditError::NoChange { index, line } => format!(
            "edits[{index}] (line {line}) changes nothing: newText gives the same text as the file already has. If \
             you meant to change a character the file writes differently (a quote, a dash, a special space), put the \
             file's character in oldText."
        ),
        EditError::FabricatedReplacementChar { index, line } => format!(
            "edits[{index}]: newText contains U+FFFD (the replacement character shown for bytes that are not valid \
             UTF-8) on line {line}, in text it rewrites. Writing it would replace the file's original bytes with \
             U+FFFD. Keep the characters around it unchanged, or leave that character out."
        ),
        EditError::LegacyEncoding { index, line } => format!(
            "edits[{index}] (line {line}): the file is not UTF-8 (it looks like a legacy 8-bit encoding such as \
             Latin-1), and newText adds non-ASCII characters whose bytes in that encoding are unknown. Write those \
             characters with ASCII only (e.g. escapes), or convert the file to UTF-8 first."
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surgical_core::{apply, Edit, Options};

    /// The `not_found` hint `edit` shows for `old` in `text`.
    fn hint(text: &[u8], old: &str) -> String {
        match apply(text, &[Edit::new(old, "\u{1}")], &Options::new()) {
            Err(EditError::NotFound { closest: c, .. }) => closest(&c, EDIT),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn points_at_the_differing_line() {
        let text = b"fn a() {\n    let x = 1;\n    call(x);\n}\n";
        let hint = hint(text, "fn a() {\n    let x = 2;\n    call(x);\n");
        assert!(hint.contains("lines 1-3"), "{hint}");
        assert!(!hint.contains("Closest regions"), "{hint}");
        assert!(hint.contains("column 13"), "{hint}");
        assert!(hint.contains("2 of 3"), "{hint}");
    }

    #[test]
    fn missing_lines_and_several_regions() {
        let text = b"fn a() {\n    one();\n    two();\n}\nfn b() {\n    one();\n    two();\n}\n";
        let h = hint(text, "fn a() {\n    one();\n    three();\n    two();\n}\n");
        assert!(h.contains("oldText line 3 is not in the file here"), "{h}");
        let h = hint(text, "    one();\n    two();\n    zzz();\n");
        assert!(h.contains("Closest regions"), "{h}");
        assert!(h.contains("lines 2-3") && h.contains("lines 6-7"), "{h}");
    }

    #[test]
    fn indentation_is_named() {
        let h = hint(b"\tif x:\n\t\treturn 1\n", "    if x:\n        return 1\n    zz");
        assert!(h.contains("indentation differs"), "{h}");
    }

    #[test]
    fn falls_back_to_bigrams() {
        let h = hint(
            b"alpha\nconst total = compute(a, b);\nomega\n",
            "const totl = compute(a,b)",
        );
        assert!(h.contains("lines 2-2"), "{h}");
    }

    #[test]
    fn other_vocabularies_name_their_lines() {
        let search = Vocabulary {
            old: "the SEARCH lines",
            short: "SEARCH",
        };
        let in_search_words = |text: &[u8], old: &str| match apply(text, &[Edit::new(old, "x")], &Options::new()) {
            Err(EditError::NotFound { closest: c, .. }) => closest(&c, search),
            other => panic!("{other:?}"),
        };
        let text = b"fn a() {\none();\nalpha_beta_gamma_delta_epsilon;\ntwo();\n}\n";
        let h = in_search_words(text, "fn a() {\none();\nqq;\ntwo();\n}\n");
        assert!(h.contains("with what differs from the SEARCH lines"), "{h}");
        assert!(h.contains("SEARCH line 3 is not in the file here"), "{h}");
        assert!(h.contains("of 5 SEARCH lines identical"), "{h}");
        assert!(h.contains("not in your SEARCH\n"), "{h}");
        assert!(h.ends_with("Copy the SEARCH lines exactly from these lines (re-read them if unsure) and retry."));
        assert!(!h.contains("oldText"), "{h}");
    }
}
