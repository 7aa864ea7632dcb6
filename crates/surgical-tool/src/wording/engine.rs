//! What the engine found, in the words of the tool that asked ([`Vocabulary`]): where the text to
//! find most nearly is (`not_found`: the closest regions, a near miss), every `EditError`, and what
//! differed between the file and the model's text and what was done about it (`normalized`, in
//! every tool that edits).
//!
//! The engine (`surgical-core`) returns data — the closest regions, the candidates, the tiers — and
//! this module turns it into the messages of the machine contract. The `edit` tool's messages are
//! part of that contract word for word; tests check them.

use std::collections::BTreeMap;

use surgical_core::fold::{describe_char, describe_text};
use surgical_core::{
    Closest, Difference, DifferenceKind, EditError, ElisionProblem, Forgiven, LineDifference, NearMiss, NearRow,
    Refusal, Region, Row,
};

use super::vocabulary::{Vocabulary, EDIT};
#[cfg(test)]
use super::vocabulary::{HUNK, SEARCH_REPLACE};

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

/// At most this many differences of a near miss are named; the rest are counted.
const MAX_NEAR_MISSES: usize = 4;

/// A region the misremembered tiers refused, in a few lines: where, why it was not taken, what
/// differs (the mistyped word, the extra line, the missing line), what to do. Comes before the
/// closest regions in a `not_found` message.
pub(crate) fn near_miss(n: &NearMiss, v: Vocabulary) -> String {
    let (first, last) = n.lines;
    let (typos, extras, missing, differs) = n.mistakes();
    let why = match &n.refused {
        Refusal::TooManyMistakes => {
            let mut parts = Vec::new();
            let mut count = |k: usize, one: &str, many: &str| {
                if k > 0 {
                    parts.push(format!("{k} {}", if k == 1 { one } else { many }));
                }
            };
            count(typos, "mistyped word", "mistyped words");
            count(extras, "extra line", "extra lines");
            count(missing, "line left out", "lines left out");
            count(differs, "line that differs by more than one word", "lines that differ by more than one word");
            format!(
                "it has {}; at most one mistyped word, one extra line and one line left out are forgiven",
                parts.join(", ")
            )
        }
        Refusal::WeakAnchor {
            equal_lines,
            equal_chars,
            needle_chars,
        } => format!(
            "only {equal_lines} {} of {} ({equal_chars} of {needle_chars} characters) {} identical there, too little to \
             be sure it is the place",
            if *equal_lines == 1 { "line" } else { "lines" },
            v.old,
            if *equal_lines == 1 { "is" } else { "are" },
        ),
        Refusal::Rival { lines } => format!(
            "a second region at lines {}-{} fits almost as well, so neither was taken",
            lines.0, lines.1
        ),
        Refusal::Repetitive => format!(
            "{} lines pair with it in too many equally good ways",
            v.old_possessive
        ),
        Refusal::BudgetSpent => "the search stopped at its work limit before comparing every candidate".to_string(),
        Refusal::ExtraLineNearby { line } => format!(
            "its extra line is also in the file nearby (line {line}), so {} may leave out more lines instead",
            v.old
        ),
        other => format!("{other:?}"),
    };
    let mut out = format!("Almost matched at lines {first}-{last}, not taken: {why}.\n");
    let named: Vec<String> = n.rows.iter().filter_map(|r| near_row(r, v)).collect();
    for line in named.iter().take(MAX_NEAR_MISSES) {
        out.push_str(&format!("  - {line}\n"));
    }
    if named.len() > MAX_NEAR_MISSES {
        out.push_str(&format!("  ... and {} more\n", named.len() - MAX_NEAR_MISSES));
    }
    out.push_str(&match n.refused {
        Refusal::Rival { .. } => format!(
            "Add lines to {} that tell the two regions apart, copied exactly from the file, and retry.\n",
            v.old
        ),
        Refusal::WeakAnchor { .. } => format!(
            "Copy {} exactly from lines {first}-{last}, with more unchanged lines around your change, and retry.\n",
            v.old
        ),
        _ => format!(
            "Correct these lines of {} to what the file has (lines {first}-{last}) and retry.\n",
            v.old
        ),
    });
    out
}

/// One difference of a near miss (`None` for lines that are equal).
fn near_row(r: &NearRow, v: Vocabulary) -> Option<String> {
    let short = v.short;
    Some(match r {
        NearRow::Equal { .. } => return None,
        NearRow::Typo {
            needle_line,
            line,
            wrote,
            file,
        } => format!("line {line} ({short} line {needle_line}): you wrote `{wrote}`, the file has `{file}`"),
        NearRow::Extra { needle_line, text } => format!(
            "{short} line {needle_line} (`{}`) is not in the file there (an extra line?)",
            clip(text)
        ),
        NearRow::Missing { line, text, between } => format!(
            "the file has line {line} (`{}`) between your {short} lines {} and {}, which your {short} leaves out",
            clip(text),
            between.0,
            between.1
        ),
        NearRow::Differs {
            needle_line,
            line,
            needle,
            file,
        } => format!(
            "{short} line {needle_line} (`{}`) differs from file line {line} (`{}`)",
            clip(needle),
            clip(file)
        ),
        other => format!("{other:?}"),
    })
}

/// A line cut for a near miss's list (shorter than [`shorten`]: several may share a line).
fn clip(s: &str) -> String {
    if s.chars().count() > 60 {
        s.chars().take(60).collect::<String>() + "..."
    } else {
        s.to_string()
    }
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
        LineDifference::Typo { needle, wrote, file } => format!(
            "you wrote {:?}; one word differs: you wrote `{wrote}`, the file has `{file}`",
            shorten(needle)
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
    edit_error_in(e, EDIT)
}

/// [`edit_error`] in the words `v` (the tool's, or the command line's).
pub(crate) fn edit_error_in(e: &EditError, v: Vocabulary) -> String {
    let old = v.old;
    let new = v.new;
    match e {
        EditError::EmptyOldText { index } => format!(
            "edits[{index}]: {old} is empty. Give the exact text to replace, copied from the file; to create or \
             overwrite a whole file, use the write tool."
        ),
        EditError::NotFound {
            index,
            also_failing,
            closest: near,
            near_miss: almost,
        } => {
            let mut out = format!("edits[{index}]: {old} was not found in the file.");
            if !also_failing.is_empty() {
                let list: Vec<String> = also_failing.iter().map(|i| format!("edits[{i}]")).collect();
                out.push_str(&format!(" ({} also not found.)", list.join(", ")));
            }
            out.push('\n');
            if let Some(almost) = almost {
                out.push_str(&near_miss(almost, v));
            }
            out.push_str(&closest(near, v));
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
                    "edits[{index}]: {old} occurs {total} times if line endings, trailing whitespace and special \
                     spaces are ignored (differences you cannot see), so which one you mean is unclear:"
                ),
                Some(t) => format!(
                    "edits[{index}]: {old} occurs {total} times (matching with the `{}` tier), so which one you \
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
            out.push_str(&format!(
                "\nAdd surrounding lines to {old} until it is unique, or {} to change every occurrence.",
                v.replace_all
            ));
            out
        }
        EditError::Overlap { first, second, line } => format!(
            "edits[{first}] and edits[{second}] overlap (near line {line}): each edit must target text that no other \
             edit in the same call touches. Merge them into one edit."
        ),
        EditError::NoChange { index, line } => format!(
            "edits[{index}] (line {line}) changes nothing: {new} gives the same text as the file already has. If \
             you meant to change a character the file writes differently (a quote, a dash, a special space), put the \
             file's character in {old}."
        ),
        EditError::FabricatedReplacementChar { index, line } => format!(
            "edits[{index}]: {new} contains U+FFFD (the replacement character shown for bytes that are not valid \
             UTF-8) on line {line}, in text it rewrites. Writing it would replace the file's original bytes with \
             U+FFFD. Keep the characters around it unchanged, or leave that character out."
        ),
        EditError::LegacyEncoding { index, line } => format!(
            "edits[{index}] (line {line}): the file is not UTF-8 (it looks like a legacy 8-bit encoding such as \
             Latin-1), and {new} adds non-ASCII characters whose bytes in that encoding are unknown. Write those \
             characters with ASCII only (e.g. escapes), or convert the file to UTF-8 first."
        ),
        EditError::Placeholder { index, line, text } => format!(
            "edits[{index}]: line {line} of newText, `{text}`, stands for code you left out, and oldText has no such \
             line: written into the file, it would delete that code. Write the code out in full in newText, or, to \
             keep code between two changes, make two edits (or keep the same marker line in oldText too)."
        ),
        EditError::Conflict {
            index,
            line,
            file,
            expected,
        } => format!(
            "edits[{index}]: line {line} of the file is\n  {file}\nbut oldText has it as\n  {expected}\nand your change \
             touches what differs, so what to write there is unclear. Copy that line from the file into oldText \
             (read it again if needed) and adapt newText to it."
        ),
        EditError::Elision {
            index,
            line,
            marker,
            problem,
        } => elision_error(*index, *line, marker, problem, v),
        other => other.to_string(),
    }
}

/// An elided `oldText` that cannot be placed: which marker, what is wrong, what to do.
fn elision_error(index: usize, line: usize, marker: &str, problem: &ElisionProblem, v: Vocabulary) -> String {
    let old = v.old;
    let new = v.new;
    let lines = |(first, last): (usize, usize)| match first == last {
        true => format!("line {first} of {old}"),
        false => format!("lines {first}-{last} of {old}"),
    };
    let head = format!("edits[{index}]: {old} leaves lines out with `{marker}` (its line {line})");
    match problem {
        ElisionProblem::Unanchored => format!(
            "{head}, but has no lines of the file on one side of it, so where the lines it stands for start or end \
             is unknown. Put a few lines copied from the file on both sides of every marker line."
        ),
        ElisionProblem::NotFound { lines: piece } => format!(
            "{head}; {} (next to it) are not in the file. Copy them from the file (read it again if needed); the \
             lines on each side of a marker must be the file's lines, in order.",
            lines(*piece)
        ),
        ElisionProblem::Ambiguous {
            lines: piece,
            at,
            total,
        } => {
            let at: Vec<String> = at.iter().map(|l| l.to_string()).collect();
            format!(
                "{head}; {} (next to it) occur {total} times in the file (at lines {}). Add lines to that part \
                 until it occurs only once, or write the elided lines out.",
                lines(*piece),
                at.join(", ")
            )
        }
        ElisionProblem::OutOfOrder {
            lines: piece,
            at,
            previous_ends,
        } => format!(
            "{head}; {} (after it) are at line {at} of the file, not after the lines before the marker (which end \
             at line {previous_ends}). Keep the lines of {old} in the file's order.",
            lines(*piece)
        ),
        ElisionProblem::MarkersDiffer {
            old: in_old,
            new: in_new,
        } => format!(
            "{head}: {old} has {in_old} such marker line{}, {new} {in_new}. The lines a marker stands for are kept \
             only when {new} keeps the same marker at the same place; surgical never deletes or rewrites lines you \
             did not show. To change them, copy them into {old} and {new} in full; to keep them, keep the marker \
             line in {new}.",
            if *in_old == 1 { "" } else { "s" }
        ),
        other => format!("edits[{index}]: {other:?}"),
    }
}

/// At most this many distinct notes per edit; the rest are counted.
const MAX_NOTES: usize = 8;

fn lines_list(lines: &[usize]) -> String {
    let mut shown: Vec<String> = lines.iter().take(6).map(|l| l.to_string()).collect();
    if lines.len() > 6 {
        shown.push(format!("and {} more", lines.len() - 6));
    }
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", shown.join(", "))
}

/// An edit aligned coarsely: too large to align character by character within the work budget.
pub(crate) fn coarse_alignment() -> String {
    "This edit was too large to align character by character within the work budget, so a coarser \
     line alignment was used: lines that oldText and newText share kept the file's bytes; changed \
     lines were written as newText has them."
        .to_string()
}

/// One sentence per kind of difference, with the lines it occurred on.
pub(crate) fn differences(differences: &[Difference], v: Vocabulary) -> Vec<String> {
    // Group identical differences, keeping first-seen order.
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for d in differences {
        let key = match &d.kind {
            DifferenceKind::Text {
                file,
                model,
                kept: true,
            } => format!(
                "the file has {} where you wrote {}; the file's characters were kept",
                describe_text(file),
                describe_text(model)
            ),
            DifferenceKind::Text {
                file,
                model,
                kept: false,
            } => format!(
                "the file had {} where you wrote {}; {} replaced it",
                describe_text(file),
                describe_text(model),
                v.your_new
            ),
            DifferenceKind::TrailingWhitespace {
                file,
                model,
                kept: true,
            } => format!(
                "the file's trailing whitespace ({}) differs from yours ({}); the file's was kept",
                describe_blanks(file),
                describe_blanks(model)
            ),
            DifferenceKind::TrailingWhitespace {
                file,
                model,
                kept: false,
            } => format!(
                "the file's trailing whitespace ({}) differed from yours ({}); yours was written",
                describe_blanks(file),
                describe_blanks(model)
            ),
            DifferenceKind::Forgiven(f) => forgiven(f, v),
            DifferenceKind::Rewritten => format!(
                "differed from {} and you rewrote it, so {} written as given",
                v.old, v.new_was
            ),
            // A kind the engine adds later is reported, if not yet in words of its own.
            other => format!("differed from oldText: {other:?}"),
        };
        let entry = groups.entry(key.clone()).or_default();
        if entry.is_empty() {
            order.push(key);
        }
        if entry.last() != Some(&d.line) {
            entry.push(d.line);
        }
    }
    let total = order.len();
    let mut out: Vec<String> = order
        .into_iter()
        .take(MAX_NOTES)
        .map(|k| {
            let lines = lines_list(&groups[&k]);
            format!("{lines}: {k}")
        })
        .collect();
    if total > MAX_NOTES {
        out.push(format!("and {} more kinds of difference", total - MAX_NOTES));
    }
    out
}

/// Trailing blanks in a few words.
fn describe_blanks(ws: &str) -> String {
    if ws.is_empty() {
        return "none".to_string();
    }
    let n = ws.chars().count();
    if ws.chars().all(|c| c == ' ') {
        return format!("{n} space{}", if n == 1 { "" } else { "s" });
    }
    describe_text(ws)
}

/// What a looser tier forgave, in a sentence.
fn forgiven(f: &Forgiven, v: Vocabulary) -> String {
    match f {
        Forgiven::Reindented {
            shift,
            units,
            tab_width,
        } => {
            let how = match units {
                Some((mine, file)) => format!(
                    "by levels of {file} columns where {} used {mine}, shifted {shift:+}",
                    v.old
                ),
                None => format!("by {shift:+} columns"),
            };
            let style = tab_width.map_or(String::new(), |w| {
                format!(" (the file indents with tabs, {w} columns each)")
            });
            format!(
                "the file's indentation differs from {} {how}{style}; {} re-indented the same way",
                v.old_possessive, v.new_was
            )
        }
        Forgiven::WhitespaceRuns => format!(
            "runs of spaces and tabs, indentation or blank lines differ between the file and {}; unchanged lines kept \
             the file's text, changed lines were written as given",
            v.old
        ),
        Forgiven::Similar { similarity, runner_up } => format!(
            "no exact match; these lines match {} at {similarity}% similarity (the next best region: {runner_up}%); \
             lines you left unchanged kept the file's text",
            v.old
        ),
        Forgiven::Escapes { tier, also: Some(also) } => format!(
            "{} was over-escaped; unescaped, it matched ({}): {}; {} unescaped the same way",
            v.old,
            tier.name(),
            forgiven(also, v),
            v.new_was
        ),
        Forgiven::Escapes { tier, also: None } => format!(
            "{} was over-escaped (\\n, \\t or \\\" for a newline, tab or quote); unescaped, it matched ({}), and {} \
             unescaped the same way",
            v.old,
            tier.name(),
            v.new_was
        ),
        Forgiven::Misremembered {
            typo,
            extra_line,
            missing_line,
        } => {
            let mut parts = Vec::new();
            if let Some(t) = typo {
                parts.push(format!(
                    "line {}: you wrote `{}`, the file has `{}`; the file's word was kept",
                    t.line, t.wrote, t.file
                ));
            }
            if let Some(e) = extra_line {
                parts.push(format!(
                    "{} line {} (`{}`) is not in the file there; it was ignored",
                    v.short, e.needle_line, e.text
                ));
            }
            if let Some(m) = missing_line {
                parts.push(format!(
                    "file line {} (`{}`) was not in {}; it was kept",
                    m.line, m.text, v.old
                ));
            }
            format!(
                "{} misremembered the file here: {}. Every other line matched; lines you left unchanged kept the \
                 file's text",
                v.old,
                parts.join("; ")
            )
        }
        Forgiven::IndentedFirstLine => {
            "the file's line is indented more than yours; the file's indentation was kept".to_string()
        }
        Forgiven::LineNumbers { also } => {
            let mut out = format!(
                "every line of {} carried a line number from a read view (`12 | `, `12→`, `12<TAB>`), which the file \
                 does not have: the numbers were left out to find it, and not written ({} stripped of them too). \
                 Copy lines without their numbers",
                v.old, v.new_was
            );
            if let Some(also) = also {
                out.push_str("; then ");
                out.push_str(&forgiven(also, v));
            }
            out
        }
        Forgiven::Elided { markers, also } => {
            let kept: Vec<String> = markers
                .iter()
                .map(|m| {
                    let lines = match m.count {
                        0 => "no lines of the file".to_string(),
                        1 => format!("line {} of the file", m.first),
                        n => format!("lines {}-{} of the file", m.first, m.first + n - 1),
                    };
                    format!(
                        "{lines} stand for your `{}` ({} line {})",
                        m.marker, v.short, m.needle_line
                    )
                })
                .collect();
            let mut out = format!(
                "{} and were kept as they are (numbered before this edit); the lines around each marker were \
                 matched on their own",
                kept.join(", ")
            );
            for f in also {
                out.push_str("; ");
                out.push_str(&forgiven(f, v));
            }
            out
        }
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surgical_core::{apply, Edit, Options, Tier};

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
        // Two lines the file does not have (one is the `extra_line` tier's to forgive).
        let h = hint(text, "fn a() {\n    one();\n    three();\n    four();\n    two();\n}\n");
        assert!(h.contains("oldText line 4 is not in the file here"), "{h}");
        let h = hint(text, "    one();\n    two();\n    zzz();\n    yyy();\n");
        assert!(h.contains("Closest regions"), "{h}");
        assert!(h.contains("lines 2-3") && h.contains("lines 6-7"), "{h}");
    }

    /// What the misremembered tiers forgave, as the model reads it.
    #[test]
    fn misremembered_lines_are_named() {
        let text = b"fn f() {\n    let inside = 1;\n    let count = 2;\n    let total = 3;\n    done();\n}\n";
        let said = |old: &str, new: &str| {
            let a = apply(text, &[Edit::new(old, new)], &Options::new()).unwrap();
            a.edits[0]
                .differences
                .iter()
                .find_map(|d| match &d.kind {
                    DifferenceKind::Forgiven(f) => Some(forgiven(f, EDIT)),
                    _ => None,
                })
                .unwrap()
        };
        let s = said(
            "    let innside = 1;\n    let count = 2;\n    let total = 3;",
            "    let innside = 1;\n    let count = 2;\n    let total = 4;",
        );
        assert!(
            s.contains("line 2: you wrote `innside`, the file has `inside`; the file's word was kept"),
            "{s}"
        );
        let s = said(
            "    let inside = 1;\n    // helper\n    let count = 2;\n    let total = 3;",
            "    let inside = 1;\n    // helper\n    let count = 2;\n    let total = 4;",
        );
        assert!(
            s.contains("oldText line 2 (`// helper`) is not in the file there; it was ignored"),
            "{s}"
        );
        let s = said(
            "    let inside = 1;\n    let total = 3;\n    done();",
            "    let inside = 1;\n    let total = 4;\n    done();",
        );
        assert!(
            s.contains("file line 3 (`let count = 2;`) was not in oldText; it was kept"),
            "{s}"
        );
    }

    #[test]
    fn indentation_is_named() {
        let h = hint(
            b"\tif x:\n\t\treturn 1\n",
            "    if x:\n        return 1\n    zz\n    yy",
        );
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
        let search = SEARCH_REPLACE;
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

    #[test]
    fn elisions_in_words() {
        use surgical_core::{apply, Edit, Options};
        let file = "fn a() {\n    let x = 1;\n    let y = 2;\n    let z = 3;\n    call(x, y, z);\n}\n";
        let old = "fn a() {\n    let x = 1;\n    // ... existing code ...\n    call(x, y, z);\n}\n";
        let new = old.replace("x = 1", "x = 10");
        let a = apply(file.as_bytes(), &[Edit::new(old, &new)], &Options::new()).unwrap();
        let notes = differences(&a.edits[0].differences, EDIT);
        assert_eq!(
            notes[0],
            "line 1: lines 3-4 of the file stand for your `// ... existing code ...` (oldText line 3) and were kept as they \
             are (numbered before this edit); the lines around each marker were matched on their own"
        );
        let refused = |old: &str, new: &str| {
            edit_error(&apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap_err())
        };
        assert_eq!(
            refused("    let x = 1;\n...\n", "    let x = 2;\n...\n"),
            "edits[0]: oldText leaves lines out with `...` (its line 2), but has no lines of the file on one side of \
             it, so where the lines it stands for start or end is unknown. Put a few lines copied from the file on \
             both sides of every marker line."
        );
        assert!(refused("    let q = 1;\n...\n}\n", "    let q = 2;\n...\n}\n")
            .contains("line 1 of oldText (next to it) are not in the file"));
        assert!(refused(
            "    let x = 1;\n...\n    call(x, y, z);\n",
            "    let x = 1;\n    call(x, y, z);\n"
        )
        .contains("surgical never deletes or rewrites lines you did not show"));
        assert!(refused(
            "    call(x, y, z);\n...\n    let x = 1;\n",
            "    call(x, y);\n...\n    let x = 1;\n"
        )
        .contains("(after it) are at line 2 of the file, not after the lines before the marker (which end at line 5)"));
    }

    #[test]
    fn forgiven_in_each_vocabulary() {
        let reindented = Forgiven::Reindented {
            shift: 4,
            units: Some((4, 2)),
            tab_width: Some(4),
        };
        assert_eq!(
            forgiven(&reindented, EDIT),
            "the file's indentation differs from oldText's by levels of 2 columns where oldText used 4, shifted +4 \
             (the file indents with tabs, 4 columns each); newText was re-indented the same way"
        );
        assert_eq!(
            forgiven(&reindented, SEARCH_REPLACE),
            "the file's indentation differs from the SEARCH lines' by levels of 2 columns where the SEARCH lines \
             used 4, shifted +4 (the file indents with tabs, 4 columns each); the REPLACE lines were re-indented the \
             same way"
        );
        let escaped = Forgiven::Escapes {
            tier: Tier::WhitespaceRuns,
            also: Some(Box::new(Forgiven::WhitespaceRuns)),
        };
        assert_eq!(
            forgiven(&escaped, HUNK),
            "the hunk's old lines was over-escaped; unescaped, it matched (whitespace_runs): runs of spaces and tabs, \
             indentation or blank lines differ between the file and the hunk's old lines; unchanged lines kept the \
             file's text, changed lines were written as given; the hunk's new lines were unescaped the same way"
        );
        let plain = Forgiven::Escapes {
            tier: Tier::Exact,
            also: None,
        };
        assert_eq!(
            forgiven(&plain, EDIT),
            "oldText was over-escaped (\\n, \\t or \\\" for a newline, tab or quote); unescaped, it matched (exact), and \
             newText was unescaped the same way"
        );
    }
}
