//! The `read` tool's sentences: what is wrong with its arguments, the page's headline (path, lines,
//! encoding, line endings, hash) and the notes after the lines (cut lines, invalid UTF-8, where to
//! continue).

use std::fmt::Write as _;

use surgical_core::lines::Endings;
use surgical_fs::Encoding;

use crate::contract::eol::style;

/// What a missing file's error adds for `read`.
pub(crate) const NOT_FOUND_HINT: &str = "To create it, use the write tool.";

/// A `startLine` of 0.
pub(crate) const START_LINE_ZERO: &str =
    "startLine is one-based: use 1 for the first line (or leave it out to start there)";

/// A `limit` of 0.
pub(crate) const LIMIT_ZERO: &str =
    "limit must be at least 1 (it is the most lines to show); leave it out for up to 2000";

/// An `endLine` before `startLine`.
pub(crate) fn end_before_start(end: usize, start: usize) -> String {
    format!("endLine {end} is before startLine {start}; give endLine >= startLine, or leave it out")
}

/// A `startLine` past the end of a file of `total` lines.
pub(crate) fn past_the_end(shown: &str, start: usize, total: usize) -> String {
    if total == 0 {
        format!("{shown} is empty (0 lines), so startLine {start} is past its end; read it from line 1")
    } else {
        format!("{shown} has {total} lines, so startLine {start} is past its end; use a startLine from 1 to {total}")
    }
}

/// The first line of the result's `text`: the path, the lines shown (`start`-`end` of `total`),
/// what the file is (`about`: [`describe`]) and its hash.
pub(crate) fn headline(shown: &str, (start, end): (usize, usize), total: usize, about: &str, hash: &str) -> String {
    if total == 0 {
        format!("{shown}: empty file (0 lines; {about}); hash {hash}\n")
    } else {
        format!("{shown}: lines {start}-{end} of {total} ({about}); hash {hash}\n")
    }
}

/// What follows the lines shown: the lines `cut` after `max_chars` characters, those holding
/// `invalid_utf8` bytes, and where to continue (`next_line`, of `total`).
pub(crate) fn notes(
    cut: &[usize],
    max_chars: usize,
    invalid_utf8: &[usize],
    next_line: Option<usize>,
    total: usize,
) -> String {
    let mut out = String::new();
    if !cut.is_empty() {
        let _ = writeln!(
            out,
            "\n[{} longer than {max_chars} characters, cut where marked; the rest is not shown. oldText \
             taken from the part shown still matches.]",
            lines_list(cut, "is", "are")
        );
    }
    if !invalid_utf8.is_empty() {
        let _ = writeln!(
            out,
            "\n[{} bytes that are not valid UTF-8, shown as U+FFFD (\u{fffd}). Edits keep those bytes as they \
             are; oldText may use U+FFFD for them, but newText cannot write new ones.]",
            lines_list(invalid_utf8, "holds", "hold")
        );
    }
    if let Some(next) = next_line {
        let _ = writeln!(
            out,
            "\n[Lines {next}-{total} not shown. To continue, call read with startLine {next}.]"
        );
    }
    out
}

/// "utf-8, LF line endings", "utf-8 with BOM, mixed line endings (3 CRLF, 1 LF)", ...
pub(crate) fn describe(encoding: Encoding, endings: Endings) -> String {
    let enc = match encoding {
        Encoding::Utf8 => "utf-8",
        Encoding::Utf8Bom => "utf-8 with BOM",
        Encoding::Utf16Le => "utf-16le with BOM",
        Encoding::Utf16Be => "utf-16be with BOM",
    };
    let eol = match style(endings) {
        "none" => "no line terminator".to_string(),
        "mixed" => {
            let parts: Vec<String> = [(endings.crlf, "CRLF"), (endings.lf, "LF"), (endings.cr, "CR")]
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, name)| format!("{n} {name}"))
                .collect();
            format!("mixed line endings ({})", parts.join(", "))
        }
        style => format!("{} line endings", style.to_uppercase()),
    };
    format!("{enc}, {eol}")
}

/// "Line 3 is", "Lines 3, 7, 9 and 4 more are": `verb` after one line, `verb_plural` after several.
fn lines_list(lines: &[usize], verb: &str, verb_plural: &str) -> String {
    let mut shown: Vec<String> = lines.iter().take(8).map(|l| l.to_string()).collect();
    if lines.len() > 8 {
        shown.push(format!("and {} more", lines.len() - 8));
    }
    match lines.len() {
        1 => format!("Line {} {verb}", shown[0]),
        _ => format!("Lines {} {verb_plural}", shown.join(", ")),
    }
}
