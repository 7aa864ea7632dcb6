//! The `apply_patch` tool's sentences: what is wrong with its arguments or its patch, a hunk that
//! cannot be placed ([`placement`], in the format's words: "the hunk's unchanged and `-` lines",
//! "the SEARCH lines"), an engine error met while writing a hunk, an operation the files refuse,
//! what a write that stopped midway did, and the result's `text` (one line per file operation,
//! one per hunk, what was forgiven).

use std::fmt::Write as _;

use surgical_core::lines::LineIndex;
use surgical_core::{Closest, EditError, Tier};
use surgical_patch::{Elsewhere, Failure, FailureKind, How, HunkOutcome, Internal, PatchFormat};

use super::engine::{closest, edit_error};
use super::vocabulary::Vocabulary;
use crate::ErrorCode;

/// What a patch format calls a hunk's old lines, for placement messages: in full, and before
/// "lines".
pub(crate) fn old_lines_name(format: PatchFormat) -> (&'static str, &'static str) {
    match format {
        PatchFormat::SearchReplace => ("the SEARCH lines", "SEARCH"),
        _ => ("the hunk's unchanged and `-` lines", "hunk"),
    }
}

/// A hunk that could not be placed on `text`, in `format`'s words: its code, the message (what went
/// wrong and what to do; the caller prefixes the path and the hunk) and the one-based lines it
/// names (the candidates of an ambiguous hunk or anchor, the line where two hunks overlap).
pub(crate) fn placement(f: &Failure, text: &[u8], format: PatchFormat) -> (ErrorCode, String, Vec<usize>) {
    let (what, short) = old_lines_name(format);
    let lines = LineIndex::new(text);
    let shown = |k: usize| shown_line(lines.line(text, k).content);
    let listed = |candidates: &[usize]| candidates.iter().map(|l| l + 1).collect::<Vec<usize>>();
    match &f.kind {
        FailureKind::Ambiguous {
            candidates,
            total,
            tier,
        } => (
            ErrorCode::Ambiguous,
            hunk_ambiguous(what, candidates, *total, *tier, &shown),
            listed(candidates),
        ),
        FailureKind::NotFound {
            anchor,
            from,
            elsewhere,
        } => (
            ErrorCode::NotFound,
            hunk_not_found((what, short), *anchor, *from, elsewhere, &shown),
            Vec::new(),
        ),
        FailureKind::AnchorAmbiguous {
            anchor,
            candidates,
            total,
        } => {
            let mut message = format!("its @@ line `{anchor}` occurs {total} times, so where it points is unclear:");
            for &l in candidates {
                message.push_str(&format!("\n  line {}: {}", l + 1, shown(l)));
            }
            message.push_str(
                "\nUse a line that occurs once (the whole signature of the function or class), or add another @@ \
                 line before it naming the enclosing scope.",
            );
            (ErrorCode::Ambiguous, message, listed(candidates))
        }
        FailureKind::AnchorNotFound { anchor, outer, closest } => (
            ErrorCode::NotFound,
            anchor_not_found(anchor, *outer, closest.as_ref()),
            Vec::new(),
        ),
        FailureKind::NoPlace => (
            ErrorCode::InvalidInput,
            format!(
                "it only adds lines and has no {what} to show where: the file is not empty, so its place cannot be \
                 checked. Include at least one unchanged line before or after the added lines."
            ),
            Vec::new(),
        ),
        FailureKind::Overlap { first, second, line } => (
            ErrorCode::Overlap,
            format!(
                "hunks {first} and {second} change overlapping lines (near line {line}); each line may be changed by \
                 one hunk only. Merge them into one hunk."
            ),
            vec![*line],
        ),
        FailureKind::Engine { error, lines_before } => (
            ErrorCode::of_edit(error),
            hunk_error(error, &|k| lines_before + k),
            Vec::new(),
        ),
        FailureKind::Internal(what) => (ErrorCode::Io, internal(Some(*what)), Vec::new()),
        _ => (ErrorCode::Io, internal(None), Vec::new()),
    }
}

/// A hunk whose old lines (`what`) occur several times: where, and what to add.
fn hunk_ambiguous(
    what: &str,
    candidates: &[usize],
    total: usize,
    tier: Option<Tier>,
    shown: &dyn Fn(usize) -> String,
) -> String {
    let how = match tier {
        None => " if line endings, trailing whitespace and special spaces are ignored (differences you cannot see)"
            .to_string(),
        Some(s) => format!(" (matching with the `{}` tier)", s.name()),
    };
    let mut message = format!(
        "{} occur {total} times{how}, so where it goes is unclear:",
        capitalize(what)
    );
    for &l in candidates.iter().take(surgical_core::MAX_LISTED) {
        message.push_str(&format!("\n  line {}: {}", l + 1, shown(l)));
    }
    if total > candidates.len() {
        message.push_str(&format!("\n  ... and {} more", total - candidates.len()));
    }
    message.push_str(
        "\nAdd unchanged lines around the change (or an @@ line naming the function or class it is in) until they \
         match only one place.",
    );
    message
}

/// A hunk whose old lines (`names`: in full and short) are not where it may go: where it looked,
/// and what the whole file holds instead.
fn hunk_not_found(
    (what, short): (&'static str, &'static str),
    anchor: Option<usize>,
    from: usize,
    elsewhere: &Elsewhere,
    shown: &dyn Fn(usize) -> String,
) -> String {
    let mut message = match anchor {
        Some(a) => format!(
            "{} were not found after its @@ line (line {}: {}).",
            capitalize(what),
            a + 1,
            shown(a)
        ),
        None if from > 0 => format!("{} were not found after line {from}.", capitalize(what)),
        None => format!("{} were not found in the file.", capitalize(what)),
    };
    match elsewhere {
        Elsewhere::Closest(c) => {
            message.push('\n');
            message.push_str(&closest(c, Vocabulary::placing(what, short)));
        }
        Elsewhere::Once(line) => message.push_str(&format!(
            "\nThey do occur at line {} ({}), but not as whole lines{}. Copy the lines whole, as the file has them.",
            line + 1,
            shown(*line),
            if anchor.is_some() || from > 0 {
                ", or not after the @@ line"
            } else {
                ""
            }
        )),
        Elsewhere::Several(at) => {
            let at: Vec<String> = at.iter().map(|l| (l + 1).to_string()).collect();
            message.push_str(&format!(
                "\nThey occur (at lines {}), but not as whole lines where the hunk may go. Copy the lines whole, as \
                 the file has them.",
                at.join(", ")
            ));
        }
        _ => {}
    }
    message
}

/// An `@@` line not found (after the `@@` line before it, at line `outer`).
fn anchor_not_found(anchor: &str, outer: Option<usize>, near: Option<&Closest>) -> String {
    let mut message = match outer {
        Some(o) => format!(
            "its @@ line `{anchor}` was not found after the @@ line before it (line {}).",
            o + 1
        ),
        None => format!("its @@ line `{anchor}` was not found in the file."),
    };
    match near {
        Some(c) => {
            message.push('\n');
            message.push_str(&closest(c, Vocabulary::placing("the @@ line", "@@")));
        }
        None => message.push_str(" It occurs only before that point."),
    }
    message
}

/// A place found that could not be written on (a bug).
fn internal(what: Option<Internal>) -> String {
    let what = match what {
        Some(Internal::Unwritable) => "the hunk was found but could not be written there",
        _ => "the hunk could not be placed",
    };
    format!("internal error: {what} (please report this patch)")
}

/// A line as a model is shown it (invalid bytes as U+FFFD), trimmed and shortened.
fn shown_line(content: &[u8]) -> String {
    let s = String::from_utf8_lossy(content).trim().to_string();
    if s.chars().count() > 100 {
        s.chars().take(100).collect::<String>() + "..."
    } else {
        s
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A patch hunk's message for an engine error met while writing it (after "hunk N: "); `file_line`
/// turns the error's line (in the searched window) into the file's one-based line.
pub(crate) fn hunk_error(e: &EditError, file_line: &dyn Fn(usize) -> usize) -> String {
    match e {
        EditError::NoChange { line, .. } => format!(
            "it changes nothing: its new lines give the text the file already has (line {}). If you meant to \
             change a character the file writes differently (a quote, a dash, a special space), copy the \
             file's character into the line you remove.",
            file_line(*line).max(1)
        ),
        EditError::FabricatedReplacementChar { line, .. } => format!(
            "it writes U+FFFD (the replacement character shown for bytes that are not valid UTF-8) on a line it \
             rewrites (line {}), which would replace the file's original bytes with U+FFFD. Keep the characters \
             around it unchanged, or leave that character out.",
            file_line(*line).max(1)
        ),
        EditError::LegacyEncoding { line, .. } => format!(
            "the file is not UTF-8 (it looks like a legacy 8-bit encoding such as Latin-1), and the hunk adds \
             non-ASCII characters (line {}) whose bytes in that encoding are unknown. Write them with ASCII only \
             (e.g. escapes), or convert the file to UTF-8 first.",
            file_line(*line).max(1)
        ),
        EditError::Conflict {
            line, file, expected, ..
        } => format!(
            "line {} of the file is\n  {file}\nbut the hunk has it as\n  {expected}\nand its change touches what \
             differs, so what to write there is unclear. Copy that line from the file into the hunk (read it again \
             if needed) and adapt the new lines to it.",
            file_line(*line).max(1)
        ),
        other => edit_error(other),
    }
}

/// A patch that removed (or added) the file's UTF-8 BOM: it is invisible in the diff, so said here.
pub(crate) fn bom_changed(now_has_bom: bool) -> &'static str {
    if now_has_bom {
        "The file now starts with a UTF-8 BOM (the patch's first line has one)."
    } else {
        "The file's UTF-8 BOM was removed (the patch's first line has none); the diff cannot show it."
    }
}

/// A hunk found once the line-number prefixes of its lines were left out.
pub(crate) fn line_numbers_left_out(v: Vocabulary) -> String {
    format!(
        "Every line of {} began with a line number from a read view (`12 | `, `12→`, `12<TAB>`), which the file \
         does not have: the numbers were left out, and not written. Copy lines without their numbers.",
        v.old
    )
}

/// The end of every `apply_patch` error raised before anything was written.
pub(crate) const NOTHING_WRITTEN: &str = "No file was changed: a patch applies to all its files or to none.";

/// `message`, then [`NOTHING_WRITTEN`].
pub(crate) fn nothing_written(message: &str) -> String {
    format!("{message} {NOTHING_WRITTEN}")
}

/// A file layer's `message`, ended as a sentence, then [`NOTHING_WRITTEN`].
pub(crate) fn file_error(message: &str) -> String {
    let stop = if message.ends_with(['.', '!', '?']) { "" } else { "." };
    format!("{message}{stop} {NOTHING_WRITTEN}")
}

/// A call in no format surgical knows.
pub(crate) const NO_FORMAT: &str = "the patch is in no format surgical knows: give an apply_patch patch (`*** Begin \
                                    Patch` ... `*** End Patch`), SEARCH/REPLACE blocks (`<<<<<<< SEARCH` / \
                                    `=======` / `>>>>>>> REPLACE`, the file's path on the line before), or a \
                                    unified diff (`--- a/path`, `+++ b/path`, `@@ ... @@` hunks).";

/// The call's arguments are not a JSON object.
pub(crate) const NOT_AN_OBJECT: &str =
    "the apply_patch call must be a JSON object: {\"patch\": \"*** Begin Patch\\n...\"}";

/// Argument `key` (for `what`) is not a string.
pub(crate) fn not_a_string(what: &str, key: &str) -> String {
    format!("{what}: `{key}` must be a string")
}

/// A call without a patch.
pub(crate) const PATCH_MISSING: &str = "patch is missing: give the patch text as {\"patch\": \"...\"} (an apply_patch \
                                        patch, SEARCH/REPLACE blocks or a unified diff)";

/// A `format` that names none.
pub(crate) fn unknown_format(name: &str) -> String {
    format!("format `{name}` is unknown; use apply_patch, search_replace, unified_diff or auto")
}

/// A patch that does not parse as `format` (at one-based patch `line`, 0 when unknown).
pub(crate) fn unreadable(format: PatchFormat, line: usize, message: &str) -> String {
    let at = if line > 0 {
        format!(" (patch line {line})")
    } else {
        String::new()
    };
    format!(
        "the patch could not be read as {}{at}: {message} {NOTHING_WRITTEN}",
        format.name()
    )
}

/// What `format` calls a hunk: "block" for SEARCH/REPLACE, else "hunk".
pub(crate) fn hunk_word(format: PatchFormat) -> &'static str {
    if format == PatchFormat::SearchReplace {
        "block"
    } else {
        "hunk"
    }
}

/// Hunk `hunk` of `path` (at `patch_line`) could not be placed: `message` is [`placement`]'s.
pub(crate) fn hunk_failed(
    path: &str,
    format: PatchFormat,
    hunk: usize,
    patch_line: Option<usize>,
    message: &str,
) -> String {
    let at = patch_line.map_or(String::new(), |l| format!(" (patch line {l})"));
    format!("{path}: {} {hunk}{at}: {message}\n{NOTHING_WRITTEN}", hunk_word(format))
}

/// An added file whose content holds NUL.
pub(crate) fn new_file_with_nul(path: &str) -> String {
    format!(
        "{path}: the new file's content has a NUL character; a UTF-8 file holding NUL bytes is \
         binary to surgical. Remove it."
    )
}

/// A deletion of a file that does not exist.
pub(crate) fn delete_missing(path: &str) -> String {
    format!("{path} does not exist, so it cannot be deleted.")
}

/// A diff that deletes a file but whose removed lines leave `left` lines of it.
pub(crate) fn delete_leaves_lines(path: &str, left: usize) -> String {
    format!(
        "{path}: the diff deletes the file, but its removed lines do not account for all of \
         it ({left} lines would remain). Read the file again and give its whole content."
    )
}

/// An update of a file that does not exist (and how `format` creates one).
pub(crate) fn update_missing(path: &str, format: PatchFormat) -> String {
    let how = match format {
        PatchFormat::Codex => "`*** Add File:`",
        PatchFormat::Unified => "`--- /dev/null`",
        PatchFormat::SearchReplace => "an empty SEARCH section",
    };
    format!("{path} does not exist, so it cannot be updated. To create a file, use {how}.")
}

/// A file to delete that another program changed since it was read.
pub(crate) fn deleted_file_changed(shown: &str) -> String {
    format!("{shown} changed since it was read (another program modified or replaced it), so it was not deleted.")
}

/// A file that could not be put back after a failed write (`what`: `created`, `deleted`, or
/// nothing for a file updated in place).
pub(crate) fn not_restored(shown: &str, what: Option<&str>, error: &dyn std::fmt::Display) -> String {
    match what {
        Some(what) => format!("{shown} ({what}): {error}"),
        None => format!("{shown}: {error}"),
    }
}

/// What the error of a call whose writing stopped says about the `steps` written before it: put
/// back, or (`failed`: one message per file) not.
pub(crate) fn rolled_back(steps: usize, failed: &[String]) -> String {
    if failed.is_empty() && steps == 0 {
        NOTHING_WRITTEN.to_string()
    } else if failed.is_empty() {
        format!(
            "Writing stopped there, and the {} written before it {} restored: no file was changed.",
            count(steps, "file"),
            if steps == 1 { "was" } else { "were" }
        )
    } else {
        format!(
            "Writing failed midway, and restoring these files failed too; check them: {}",
            failed.join("; ")
        )
    }
}

/// What the engine noted about a hunk, in the format's words.
pub(crate) fn notes(h: &HunkOutcome, format: PatchFormat) -> Vec<String> {
    let words = match format {
        PatchFormat::SearchReplace => super::SEARCH_REPLACE,
        _ => super::HUNK,
    };
    let mut notes = super::engine::differences(&h.differences, words);
    if h.unnumbered {
        notes.insert(0, line_numbers_left_out(words));
    }
    notes
}

/// What one operation of the call did to a file, for the result's `text`.
pub(crate) struct Operation<'a> {
    /// `add`, `update`, `delete` or `move`.
    pub action: &'a str,
    pub path: &'a str,
    pub moved_to: Option<&'a str>,
    /// An `add` over a file that existed.
    pub replaced: bool,
    /// The lines of the file added, or deleted.
    pub lines: usize,
    pub hunks: &'a [HunkOutcome],
    /// Whether the file starts with a UTF-8 BOM now, when the operation added or removed it.
    pub bom_now: Option<bool>,
}

/// The lines of `text` about one operation: what it did, where each hunk went (with what was
/// forgiven), a BOM added or removed.
pub(crate) fn operation(o: &Operation<'_>, format: PatchFormat, dry_run: bool) -> String {
    let mut out = String::new();
    let what = hunk_word(format);
    // A dry run says what would happen.
    let (applied, created, replaced, deleted) = if dry_run {
        (
            "would apply",
            "would be created",
            "would replace its content",
            "would be deleted",
        )
    } else {
        ("applied", "created", "replaced its content", "deleted")
    };
    let _ = match o.action {
        "add" if o.replaced => writeln!(out, "A {}: {replaced} ({}).", o.path, count(o.lines, "line")),
        "add" => writeln!(out, "A {}: {created} ({}).", o.path, count(o.lines, "line")),
        "delete" => writeln!(out, "D {}: {deleted} ({}).", o.path, count(o.lines, "line")),
        "move" => writeln!(
            out,
            "R {} -> {}: {} {applied}.",
            o.path,
            o.moved_to.unwrap_or(""),
            count(o.hunks.len(), what)
        ),
        _ => writeln!(out, "M {}: {} {applied}.", o.path, count(o.hunks.len(), what)),
    };
    for h in o.hunks {
        out.push_str(&hunk_sentence(h, what, dry_run));
        out.push('\n');
        for note in notes(h, format) {
            let _ = writeln!(out, "    {note}");
        }
    }
    if let Some(now_has_bom) = o.bom_now {
        let _ = writeln!(out, "  {}", bom_changed(now_has_bom));
    }
    out
}

/// One sentence on where a hunk went.
fn hunk_sentence(h: &HunkOutcome, what: &str, dry_run: bool) -> String {
    let lines = if h.new_lines.0 == h.new_lines.1 {
        format!("line {}", h.new_lines.0)
    } else {
        format!("lines {}-{}", h.new_lines.0, h.new_lines.1)
    };
    let place = match h.how {
        How::Unique => String::new(),
        How::Anchor(a) => format!(", after its @@ line {}", a + 1),
        How::AfterPrevious => format!(", the only match after {what} {}", h.index.saturating_sub(1)),
        How::LineHint(l) => format!(", the match nearest the line number {l} in its header"),
        How::AfterAnchor(a) => format!(", added after its @@ line {}", a + 1),
        How::EndOfFile => ", at the end of the file".to_string(),
        How::StartOfFile => ", at the start of the file".to_string(),
        _ => String::new(),
    };
    let (a, b) = h.dropped;
    let fuzz = if a + b > 0 {
        let side = |n: usize, end: &str| match n {
            0 => None,
            1 => Some(format!("its {end} unchanged line")),
            n => Some(format!("its {end} {n} unchanged lines")),
        };
        let parts: Vec<String> = [side(a, "first"), side(b, "last")].into_iter().flatten().collect();
        let label = if h.fuzz > 0 {
            format!(", fuzz {}", h.fuzz)
        } else {
            String::new()
        };
        format!(
            "{label}: found only without {}, left as the file has them",
            parts.join(" and ")
        )
    } else {
        String::new()
    };
    let at = if dry_run { "would be at" } else { "now at" };
    format!(
        "  {what} {}: {at} {lines} (matched {}{place}{fuzz}).",
        h.index,
        h.strategy.name()
    )
}

/// The first line of the result's `text`: the format, how many file operations, of which kind
/// (`counts`: how many `add`, `update`, `move` and `delete` operations, in that order).
pub(crate) fn headline(dry_run: bool, format: PatchFormat, operations: usize, counts: [usize; 4]) -> String {
    let mut parts = Vec::new();
    for (n, word) in counts.into_iter().zip(["added", "updated", "moved", "deleted"]) {
        if n > 0 {
            parts.push(format!("{n} {word}"));
        }
    }
    format!(
        "{} patch ({} format): {} ({}).\n",
        if dry_run {
            "Dry run, nothing written. Would apply the"
        } else {
            "Applied the"
        },
        format.name(),
        count(operations, "file operation"),
        parts.join(", ")
    )
}

/// "1 hunk", "3 hunks".
fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
