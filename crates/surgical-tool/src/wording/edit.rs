//! The `edit` tool's sentences: what is wrong with its arguments, the result's `text` (one line for
//! the call, one per edit with what was forgiven, the diff), and the errors of the in-place
//! pipeline it shares with `apply_snippet` (a stale file, a missing one). What the engine found —
//! not found, ambiguous, what differed — is worded in [`super::engine`].

use std::fmt::Write as _;

use surgical_fs::Encoding;

use crate::EditReport;

/// What a missing file's error adds for `edit`, `apply_snippet` and `undo`.
pub(crate) const NOT_FOUND_HINT: &str = "To create a new file, use the write tool.";

/// An edit (`what`: `edits[2]`, "the call") with `oldText` but no `newText`.
pub(crate) fn new_text_missing(what: &str) -> String {
    format!("{what}: newText is missing. Give newText (an empty string deletes oldText).")
}

/// An edit with `newText` but no `oldText`.
pub(crate) fn old_text_missing(what: &str) -> String {
    format!("{what}: oldText is missing.")
}

/// `edits` sent as a string that does not parse as JSON.
pub(crate) fn edits_not_json(error: &serde_json::Error) -> String {
    format!("edits is a string but not valid JSON ({error}); send edits as an array")
}

/// `edits` sent as a string holding JSON that is not an array (`kind`: what it holds).
pub(crate) fn edits_string_not_an_array(kind: &str) -> String {
    format!("edits must be an array, not {kind}")
}

/// `edits` that is neither an array nor a string.
pub(crate) fn edits_not_an_array(kind: &str) -> String {
    format!("edits must be an array of {{oldText, newText}}, not {kind}")
}

/// An item of `edits` that is not an object.
pub(crate) fn edit_not_an_object(what: &str, kind: &str) -> String {
    format!("{what} must be an object, not {kind}")
}

/// An item of `edits` without `oldText` and `newText`.
pub(crate) fn edit_empty(what: &str) -> String {
    format!("{what} has no oldText/newText.")
}

/// Both `edits` and a top-level `oldText`/`newText`.
pub(crate) const EDITS_AND_TOP_LEVEL: &str = "give either edits or a single top-level oldText/newText, not both";

/// Neither `edits` nor a top-level `oldText`/`newText`.
pub(crate) const NO_EDITS: &str =
    "no edits: give edits: [{\"oldText\": ..., \"newText\": ...}] or a top-level oldText/newText";

/// `expectedHash` differs from the file's hash (`edit`, `apply_snippet`).
pub(crate) fn stale(shown: &str, now: &str, expected: &str) -> String {
    format!(
        "{shown} changed since you read it (its hash is now {now}, you expected {expected}). Read it \
         again and redo the edit against what it holds now."
    )
}

/// The `text` of the result: one line for the call, one per edit with what was forgiven, the diff.
pub(crate) fn summary(shown: &str, dry_run: bool, encoding: Encoding, reports: &[EditReport], diff: &str) -> String {
    let mut text = String::new();
    let n = reports.len();
    let _ = writeln!(
        text,
        "{} {shown}: {n} edit{} {}{}.",
        if dry_run {
            "Dry run, nothing written. Would edit"
        } else {
            "Edited"
        },
        if n == 1 { "" } else { "s" },
        if dry_run { "would apply" } else { "applied" },
        encoding_kept(encoding)
    );
    for r in reports {
        let lines = if r.start_line == r.end_line {
            format!("line {}", r.start_line)
        } else {
            format!("lines {}-{}", r.start_line, r.end_line)
        };
        let times = if r.occurrences > 1 {
            format!(", {} occurrences", r.occurrences)
        } else {
            String::new()
        };
        let at = if dry_run { "would be at" } else { "now at" };
        let _ = writeln!(text, "edits[{}]: {at} {lines} (matched {}{times}).", r.index, r.tier);
        for note in &r.normalized {
            let _ = writeln!(text, "  {note}");
        }
    }
    text.push('\n');
    super::output::push_diff(&mut text, diff, super::output::WHOLE_DIFF_IN_DIFF);
    text
}

/// What a headline adds about a file that is not plain UTF-8 (`edit`, `apply_snippet`).
pub(crate) fn encoding_kept(encoding: Encoding) -> String {
    if encoding == Encoding::Utf8 {
        String::new()
    } else {
        format!(" (file encoding {} kept)", encoding.name())
    }
}
