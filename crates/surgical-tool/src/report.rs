//! Fitting what the tool reports into a model's context (the words themselves are in `wording`).

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
