//! What a result says where it was cut to fit a model's context: the diff in `text` after
//! [`MAX_DIFF_LINES_IN_TEXT`] lines, a long line, the lines past a field's cap (the limits and the
//! cutting are `pipeline::bounded`'s).

/// At most this many lines of a diff go into a result's `text`.
pub(crate) const MAX_DIFF_LINES_IN_TEXT: usize = 400;

/// Appends `diff` to the model-facing `text`, cut after [`MAX_DIFF_LINES_IN_TEXT`] lines: a model's
/// context is finite, and the whole diff stays in the result's `where_whole` field.
pub(crate) fn push_diff(text: &mut String, diff: &str, where_whole: &str) {
    let total = diff.lines().count();
    if total <= MAX_DIFF_LINES_IN_TEXT {
        text.push_str(diff);
        return;
    }
    for line in diff.lines().take(MAX_DIFF_LINES_IN_TEXT) {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&format!(
        "... ({} more diff lines not shown here; {where_whole})\n",
        total - MAX_DIFF_LINES_IN_TEXT
    ));
}

/// What replaces the end of a line cut after its first characters (`read`'s lines, and every
/// line of a result's `text`, `diff` and `patch`).
pub(crate) fn line_cut(more_chars: usize) -> String {
    format!(" [... line cut here: {more_chars} more characters not shown]")
}

/// What replaces the start of a line shown from its middle on (a change far into a long line in a
/// diff or a patch), before the characters shown.
pub(crate) fn line_cut_before(earlier_chars: usize) -> String {
    format!("[... line cut here: {earlier_chars} earlier characters not shown] ")
}

/// The last line of an output capped at `max_bytes`, after which `left_out` lines were left out.
pub(crate) fn lines_left_out(left_out: usize, max_bytes: usize) -> String {
    format!(
        "[... {left_out} more lines not shown: this output is capped at {} KiB]\n",
        max_bytes / 1024
    )
}

/// Where a result's `text` says the whole diff is (its diff was cut there).
pub(crate) const WHOLE_DIFF_IN_DIFF: &str = "the full diff is in `diff`";

/// The same for `apply_patch`, whose `text` holds every file's diff.
pub(crate) const WHOLE_DIFFS_IN_FILES: &str = "every file's diff is in `files[].diff`";
