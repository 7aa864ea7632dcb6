//! Turning what the engine found into words for the model.

use std::collections::BTreeMap;

use surgical_core::fold::describe_text;
use surgical_core::{Difference, DifferenceKind};

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

/// One sentence per kind of difference, with the lines it occurred on.
pub(crate) fn describe_differences(differences: &[Difference]) -> Vec<String> {
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
                "the file had {} where you wrote {}; your newText replaced it",
                describe_text(file),
                describe_text(model)
            ),
            DifferenceKind::TrailingWhitespace {
                file,
                model,
                kept: true,
            } => format!(
                "the file's trailing whitespace ({}) differs from yours ({}); the file's was kept",
                describe_ws(file),
                describe_ws(model)
            ),
            DifferenceKind::TrailingWhitespace {
                file,
                model,
                kept: false,
            } => format!(
                "the file's trailing whitespace ({}) differed from yours ({}); yours was written",
                describe_ws(file),
                describe_ws(model)
            ),
            DifferenceKind::Note(note) => note.clone(),
            DifferenceKind::Rewritten => {
                "differed from oldText and you rewrote it, so newText was written as given".to_string()
            }
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

fn describe_ws(ws: &str) -> String {
    if ws.is_empty() {
        return "none".to_string();
    }
    let n = ws.chars().count();
    if ws.chars().all(|c| c == ' ') {
        return format!("{n} space{}", if n == 1 { "" } else { "s" });
    }
    describe_text(ws)
}

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
