//! Every sentence the `text_editor` tool writes, in one place.
//!
//! The sentences that open each result are those Claude models read from Anthropic's reference
//! implementation of the tool (anthropics/anthropic-quickstarts, `computer_use_demo/tools/edit.py`,
//! MIT), which SWE-agent's and OpenHands' `str_replace_editor` keep: "Here's the result of running
//! `cat -n` on ...", "The file ... has been edited.", "No replacement was performed, old_str `...`
//! did not appear verbatim in ...", and so on. They are kept word for word because models act on
//! them (a model that reads "did not appear verbatim" re-reads the file). What surgical adds —
//! where a missed `old_str` nearly was, which occurrence is where, that a tolerant match placed the
//! edit — follows them, in its own words.

use surgical_core::{EditError, Tier};

use crate::wording::{engine as engine_words, vocabulary::Vocabulary};

/// The tool's words for the parts of a replacement, for the engine's sentences (closest regions,
/// what a tolerant match forgave).
pub(crate) const OLD_STR: Vocabulary = Vocabulary {
    old: "old_str",
    short: "old_str",
    old_possessive: "old_str's",
    your_new: "your new_str",
    new_was: "new_str was",
    new: "new_str",
    // The tool replaces one occurrence only.
    replace_all: "",
};

/// Lines of context shown around a change, before and after (as the reference implementation).
pub(crate) const SNIPPET_LINES: usize = 4;

/// At most this many characters of `old_str` are repeated in a message.
const MAX_ECHO: usize = 300;

/// The tool's name in its own messages.
const TOOL: &str = "text_editor";

/// The header of a numbered view: `descriptor` is a path or "a snippet of ...".
pub(crate) fn cat_n(descriptor: &str) -> String {
    format!("Here's the result of running `cat -n` on {descriptor}:\n")
}

/// What `cat_n` names for an edit's snippet.
pub(crate) fn snippet_of(path: &str) -> String {
    format!("a snippet of {path}")
}

/// What `cat_n` names for an insertion's snippet.
pub(crate) const SNIPPET_OF_EDITED_FILE: &str = "a snippet of the edited file";

/// The first words of a successful `str_replace` or `insert`.
pub(crate) fn edited(path: &str) -> String {
    format!("The file {path} has been edited. ")
}

/// The last sentence of a successful `str_replace`.
pub(crate) const REVIEW_REPLACEMENT: &str =
    "Review the changes and make sure they are as expected. Edit the file again if necessary.";

/// The last sentence of a successful `insert`.
pub(crate) const REVIEW_INSERTION: &str = "Review the changes and make sure they are as expected (correct \
     indentation, no duplicate lines, etc). Edit the file again if necessary.";

/// A successful `create`.
pub(crate) fn created(path: &str) -> String {
    format!("File created successfully at: {path}")
}

/// The first words of a successful `undo_edit`.
pub(crate) fn undone(path: &str) -> String {
    format!("Last edit to {path} undone successfully.")
}

/// The header of a directory listing.
pub(crate) fn directory(path: &str) -> String {
    format!("Here's the files and directories up to 2 levels deep in {path}, excluding hidden items:\n")
}

/// Hidden entries left out of a listing.
pub(crate) fn hidden(count: usize, path: &str) -> String {
    format!(
        "\n{count} hidden {} in {path} {} left out (names starting with a dot); view one by its path to see it.\n",
        if count == 1 { "entry" } else { "entries" },
        if count == 1 { "is" } else { "are" },
    )
}

/// A listing cut at `shown` entries.
pub(crate) fn listing_clipped(shown: usize, path: &str) -> String {
    format!(
        "<response clipped><NOTE>Only the first {shown} entries are listed. View a subdirectory of {path} to see \
         what is in it.</NOTE>\n"
    )
}

/// A view whose lines stop before the range asked for: lines `next`..=`last` were not shown.
pub(crate) fn view_clipped(why: &str, next: usize, last: usize, total: usize) -> String {
    let upto = last.min(next.saturating_add(1999));
    format!(
        "<response clipped><NOTE>{why} Lines {next}-{last} of {total} are not shown. To see them, view with \
         view_range [{next}, {upto}].</NOTE>\n"
    )
}

/// Why a view stopped: `max_characters`.
pub(crate) fn clipped_by_max_characters(max: usize) -> String {
    format!("The view is limited to {max} characters (max_characters).")
}

/// Why a view stopped: the size of one view.
pub(crate) fn clipped_by_page(lines: usize, kib: usize) -> String {
    format!("One view shows at most {lines} lines or {kib} KiB.")
}

/// An empty file viewed.
pub(crate) fn empty_file(path: &str) -> String {
    format!("({path} is empty: it has no lines.)\n")
}

/// A `view_range` whose end is past the file: the lines up to the end are shown.
pub(crate) fn view_range_clipped(path: &str, total: usize) -> String {
    format!("NOTE: {path} has only {total} lines, so the view ends at line {total}.\n")
}

/// Lines cut at `max` characters in a view or a snippet.
pub(crate) fn lines_cut(lines: &[usize], max: usize) -> String {
    format!(
        "[{} longer than {max} characters and cut where marked. An old_str taken from the part shown still \
         matches.]\n",
        list_of_lines(lines, "is", "are")
    )
}

/// Lines holding bytes that are not valid UTF-8.
pub(crate) fn invalid_utf8(lines: &[usize]) -> String {
    format!(
        "[{} bytes that are not valid UTF-8, shown as U+FFFD (\u{fffd}). Edits keep those bytes; old_str may use \
         U+FFFD for them, but new_str cannot write new ones.]\n",
        list_of_lines(lines, "holds", "hold")
    )
}

/// The marker after a line cut at its `more` last characters.
pub(crate) fn line_cut_marker(more: usize) -> String {
    format!(" [... line cut here: {more} more characters not shown]")
}

/// A snippet cut at `shown` lines.
pub(crate) fn snippet_clipped(shown: usize) -> String {
    format!("[... the snippet stops after {shown} lines; view the file to see the rest.]\n")
}

/// A `str_replace` placed by a tolerant match: where, how, and what was forgiven.
pub(crate) fn loosely_placed(tier: &str, lines: (usize, usize), notes: &[String]) -> String {
    let at = if lines.0 == lines.1 {
        format!("line {}", lines.0)
    } else {
        format!("lines {}-{}", lines.0, lines.1)
    };
    let mut out = format!(
        "Note: old_str did not appear verbatim; surgical placed it at {at} (now) by its `{tier}` matching, and \
         kept the file's own characters wherever old_str and new_str agree."
    );
    for note in notes {
        out.push_str("\n  ");
        out.push_str(note);
    }
    out.push('\n');
    out
}

/// "Line 3 is", "Lines 3, 7 and 9 are", with at most 8 numbers.
fn list_of_lines(lines: &[usize], verb: &str, verb_plural: &str) -> String {
    let mut shown: Vec<String> = lines.iter().take(8).map(|l| l.to_string()).collect();
    if lines.len() > 8 {
        shown.push(format!("{} more", lines.len() - 8));
    }
    match shown.len() {
        1 => format!("Line {} {verb}", shown[0]),
        n => format!("Lines {} and {} {verb_plural}", shown[..n - 1].join(", "), shown[n - 1]),
    }
}

/// A list of line numbers as the reference implementation prints it: `[1, 7]`.
fn python_list(lines: &[usize]) -> String {
    let items: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// `text` as a message repeats it: cut past [`MAX_ECHO`] characters, the cut said.
fn echo(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHO) {
        None => text.to_string(),
        Some((at, _)) => format!("{}[... {} more characters]", &text[..at], text[at..].chars().count()),
    }
}

// --- Errors of the call itself (invalid_input).

pub(crate) fn command_missing() -> String {
    format!(
        "Parameter `command` is required: one of {}.",
        crate::contract::text_editor::COMMANDS.join(", ")
    )
}

pub(crate) fn unknown_command(command: &str) -> String {
    format!(
        "Unrecognized command {command}. The allowed commands for the {TOOL} tool are: {}",
        crate::contract::text_editor::COMMANDS.join(", ")
    )
}

pub(crate) fn parameter_missing(name: &str, command: &str) -> String {
    format!("Parameter `{name}` is required for command: {command}")
}

pub(crate) fn insert_text_missing() -> String {
    "Parameter `insert_text` is required for command: insert (the text to insert; `new_str` in the \
     text_editor_20250124 version of the tool)."
        .to_string()
}

pub(crate) fn insert_text_twice() -> String {
    "insert was given two different texts, insert_text and new_str: give the text to insert once (insert_text, \
     or new_str in the text_editor_20250124 version of the tool), not both."
        .to_string()
}

pub(crate) fn not_an_integer(name: &str, key: &str, value: &str) -> String {
    format!("Invalid `{name}` parameter: `{key}` must be a whole number, not {value}.")
}

pub(crate) fn max_characters_invalid(n: i64) -> String {
    format!("Invalid `max_characters` parameter: {n}. It should be at least 1, or left out to show the whole file.")
}

pub(crate) fn view_range_not_two_integers(value: &str) -> String {
    format!("Invalid `view_range`: {value}. It should be a list of two integers.")
}

pub(crate) fn view_range_on_directory() -> String {
    "The `view_range` parameter is not allowed when `path` points to a directory.".to_string()
}

pub(crate) fn view_range_start(range: (i64, i64), total: usize) -> String {
    format!(
        "Invalid `view_range`: [{}, {}]. Its first element `{}` should be within the range of lines of the file: \
         [1, {}]",
        range.0,
        range.1,
        range.0,
        total.max(1)
    )
}

pub(crate) fn view_range_order(range: (i64, i64)) -> String {
    format!(
        "Invalid `view_range`: [{}, {}]. Its second element `{}` should be larger or equal than its first `{}` \
         (or -1, for the end of the file)",
        range.0, range.1, range.1, range.0
    )
}

pub(crate) fn insert_line_range(insert_line: i64, total: usize) -> String {
    format!(
        "Invalid `insert_line` parameter: {insert_line}. It should be within the range of lines of the file: \
         [0, {total}] (0 inserts before the first line, {total} after the last)."
    )
}

// --- Errors about the path.

pub(crate) fn path_missing(path: &str, command: &str) -> String {
    let hint = if command == "create" {
        ""
    } else {
        " To make a new file, use the `create` command."
    };
    format!("The path {path} does not exist. Please provide a valid path.{hint}")
}

pub(crate) fn is_directory(path: &str) -> String {
    format!("The path {path} is a directory and only the `view` command can be used on directories.")
}

pub(crate) fn already_exists(path: &str) -> String {
    format!(
        "File already exists at: {path}. Cannot overwrite files using command `create`. Change it with \
         `str_replace` or `insert` instead."
    )
}

pub(crate) fn nul_in_file_text(line: usize) -> String {
    format!(
        "file_text has a NUL character (U+0000) on line {line}; a file holding NUL bytes is binary, and could not \
         be viewed or edited afterwards. Remove it."
    )
}

pub(crate) fn file_text_too_large(path: &str, bytes: usize, limit: u64) -> String {
    format!("file_text for {path} is {bytes} bytes, over the limit of {limit} bytes; nothing was written.")
}

pub(crate) fn no_history(path: &str, why: &str) -> String {
    format!("No edit history found for {path}. {why}")
}

pub(crate) fn undo_refused(why: &str) -> String {
    format!("No undo was performed: {why}")
}

// --- Errors of the edit engine, for `str_replace` and `insert`.

/// The message for an engine error met by `str_replace` with `old_str`/`new_str`, and the lines it
/// names (the occurrences of an ambiguous `old_str`).
pub(crate) fn replace_error(e: &EditError, path: &str, old_str: &str, new_str: &str) -> (String, Vec<usize>) {
    match e {
        EditError::NotFound {
            closest, near_miss, ..
        } => {
            let mut out = format!(
                "No replacement was performed, old_str `{}` did not appear verbatim in {path}. It was not found \
                 either when line endings, trailing whitespace, quotes, dashes, special spaces or indentation are \
                 allowed to differ.\n",
                echo(old_str)
            );
            if let Some(n) = near_miss {
                out.push_str(&engine_words::near_miss(n, OLD_STR));
            }
            out.push_str(&engine_words::closest(closest, OLD_STR));
            (out, Vec::new())
        }
        EditError::Ambiguous {
            tier,
            occurrences,
            total,
            ..
        } => {
            let lines: Vec<usize> = occurrences.iter().map(|o| o.0).collect();
            let mut out = format!(
                "No replacement was performed. Multiple occurrences of old_str `{}` in lines {}. Please ensure it is \
                 unique.",
                echo(old_str),
                python_list(&lines)
            );
            match tier {
                None if *total > 1 => out.push_str(&format!(
                    " ({total} occurrences, counting those that differ only in line endings, trailing whitespace or \
                     special spaces.)"
                )),
                Some(t) if *t != Tier::Exact => out.push_str(&format!(
                    " ({total} occurrences with surgical's `{}` matching.)",
                    t.name()
                )),
                _ if *total > lines.len() => out.push_str(&format!(" ({total} occurrences in all.)")),
                _ => {}
            }
            for (line, text) in occurrences {
                out.push_str(&format!("\n  line {line}: {text}"));
            }
            out.push_str("\nAdd lines before or after to old_str until it occurs only once.");
            (out, lines)
        }
        EditError::EmptyOldText { .. } => (
            "No replacement was performed: old_str is empty, and empty text occurs everywhere. Give the exact text \
             to replace, copied from the file; to add lines, use the `insert` command."
                .to_string(),
            Vec::new(),
        ),
        EditError::NoChange { line, .. } if old_str == new_str => (
            format!(
                "No replacement was performed, old_str `{}` is the same as new_str `{}` (line {line}).",
                echo(old_str),
                echo(new_str)
            ),
            Vec::new(),
        ),
        EditError::NoChange { line, .. } => (
            format!(
                "No replacement was performed: new_str gives the text the file already has at line {line} (surgical \
                 keeps the file's own characters where old_str and new_str agree). To change a character the file \
                 writes differently from old_str (a quote, a dash, a special space), put the file's character in \
                 old_str."
            ),
            Vec::new(),
        ),
        EditError::FabricatedReplacementChar { line, .. } => (
            format!(
                "No replacement was performed: new_str writes U+FFFD on line {line}, in text it rewrites. U+FFFD stands \
                 for bytes of the file that are not valid UTF-8; writing it would destroy them. Keep the characters \
                 around it unchanged, or leave that character out."
            ),
            Vec::new(),
        ),
        EditError::LegacyEncoding { line, .. } => (
            format!(
                "No replacement was performed (line {line}): {path} is not UTF-8 (it looks like a legacy 8-bit \
                 encoding such as Latin-1), and new_str adds non-ASCII characters whose bytes in that encoding are \
                 unknown. Write them with ASCII only (escapes), or convert the file to UTF-8 first."
            ),
            Vec::new(),
        ),
        EditError::Placeholder { line, text, .. } => (
            format!(
                "No replacement was performed: line {line} of new_str, `{text}`, stands for code left out, and \
                 old_str has no such line; written into the file it would delete that code. Write the code out in \
                 full in new_str."
            ),
            Vec::new(),
        ),
        EditError::Conflict {
            line, file, expected, ..
        } => (
            format!(
                "No replacement was performed: line {line} of {path} is\n  {file}\nbut old_str has it as\n  \
                 {expected}\nand new_str changes what differs, so what to write there is unclear. Copy that line \
                 from the file into old_str (view it again if needed) and adapt new_str to it."
            ),
            Vec::new(),
        ),
        other => {
            // Elided old_str (marker lines) and what the engine may add: its own sentence, in this
            // tool's words, without the index of an `edits` list this tool does not have.
            let message = engine_words::edit_error_in(other, OLD_STR);
            let message = message.strip_prefix("edits[0]: ").unwrap_or(&message).to_string();
            let lines = match other {
                EditError::Elision {
                    problem: surgical_core::ElisionProblem::Ambiguous { at, .. },
                    ..
                } => at.clone(),
                _ => Vec::new(),
            };
            (format!("No replacement was performed: {message}"), lines)
        }
    }
}

/// The message for an engine error met by `insert`.
pub(crate) fn insert_error(e: &EditError, path: &str) -> String {
    match e {
        EditError::FabricatedReplacementChar { .. } => "No insertion was performed: the text to insert holds \
             U+FFFD, the character shown for bytes that are not valid UTF-8; surgical does not write it into a file \
             holding such bytes. Leave that character out."
            .to_string(),
        EditError::LegacyEncoding { .. } => format!(
            "No insertion was performed: {path} is not UTF-8 (it looks like a legacy 8-bit encoding such as \
             Latin-1), and the text to insert has non-ASCII characters whose bytes in that encoding are unknown. \
             Write them with ASCII only (escapes), or convert the file to UTF-8 first."
        ),
        other => {
            let message = engine_words::edit_error_in(other, OLD_STR);
            format!(
                "No insertion was performed: {}",
                message.strip_prefix("edits[0]: ").unwrap_or(&message)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_echoes() {
        assert_eq!(python_list(&[1, 7]), "[1, 7]");
        assert_eq!(list_of_lines(&[3], "is", "are"), "Line 3 is");
        assert_eq!(list_of_lines(&[3, 7, 9], "is", "are"), "Lines 3, 7 and 9 are");
        let long = "é".repeat(MAX_ECHO + 5);
        assert!(echo(&long).ends_with("[... 5 more characters]"));
        assert_eq!(echo("short"), "short");
    }
}
