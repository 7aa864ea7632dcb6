//! The `apply_snippet` tool's sentences: where each segment landed, what the snippet's edges and
//! indentation meant, and why a snippet was not merged.

use std::fmt::Write as _;

use surgical_core::snippet::Placement;
use surgical_fs::Encoding;

use super::engine::{closest, edit_error};
use super::vocabulary::SNIPPET;

/// A call without a snippet.
pub(crate) const MISSING: &str = "snippet is missing: give the changed code, with a marker line such as \
                                  `// ... existing code ...` where unchanged code is left out.";

/// The `text` of the result: one line for the call, one per segment, the edges kept, the diff.
pub(crate) fn summary(shown: &str, dry_run: bool, encoding: Encoding, diff: &str, merged: &Placement) -> String {
    let mut text = String::new();
    let n = merged.segments.len();
    let _ = writeln!(
        text,
        "{} {shown}: {n} segment{} of the snippet {}{}.",
        if dry_run {
            "Dry run, nothing written. Would merge into"
        } else {
            "Merged into"
        },
        if n == 1 { "" } else { "s" },
        if dry_run { "placed" } else { "applied" },
        super::edit::encoding_kept(encoding)
    );
    for (i, s) in merged.segments.iter().enumerate() {
        let _ = writeln!(text, "{}", segment(i, s, dry_run));
    }
    for note in notes(merged) {
        let _ = writeln!(text, "{note}");
    }
    text.push('\n');
    super::output::push_diff(&mut text, diff, super::output::WHOLE_DIFF_IN_DIFF);
    text
}

/// One line of an `apply_snippet` result per segment: where it landed and what it deleted.
pub(crate) fn segment(i: usize, s: &surgical_core::snippet::SegmentPlacement, dry_run: bool) -> String {
    let at = if dry_run { "would be at" } else { "now at" };
    let lines = |(a, b): (usize, usize)| {
        if a == b {
            format!("line {a}")
        } else {
            format!("lines {a}-{b}")
        }
    };
    let what = if !s.changed {
        "unchanged lines only, kept".to_string()
    } else if s.deleted_lines == 0 {
        "nothing deleted".to_string()
    } else {
        format!(
            "{} file line{} between its anchors deleted or rewritten",
            s.deleted_lines,
            if s.deleted_lines == 1 { "" } else { "s" }
        )
    };
    format!(
        "segments[{i}] (snippet {}): {at} {}, replacing old {}; {what}.",
        lines(s.snippet_lines),
        lines(s.new_lines),
        lines(s.old_lines)
    )
}

/// What an `apply_snippet` result says about the snippet's edges and indentation.
pub(crate) fn notes(p: &surgical_core::snippet::Placement) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some((a, b)) = p.kept_before {
        notes.push(format!(
            "The snippet has no marker before its first line: file lines {a}-{b} before it were kept, not deleted. \
             To delete them, show the lines around them."
        ));
    }
    if let Some((a, b)) = p.kept_after {
        notes.push(format!(
            "The snippet has no marker after its last line: file lines {a}-{b} after it were kept, not deleted. \
             To delete them, show the lines around them."
        ));
    }
    if p.indentation_ignored {
        notes.push(
            "No placement fit with the snippet's indentation as written: lines were compared with indentation \
             ignored, and new lines were indented like the file's."
                .to_string(),
        );
    }
    notes
}

/// Why a snippet was not merged, for the model.
pub(crate) fn error(e: &surgical_core::snippet::SnippetError) -> String {
    use surgical_core::snippet::SnippetError;
    match e {
        SnippetError::Empty => "the snippet holds no code, only marker lines or nothing. Give the changed code, with \
                                unchanged code left out behind marker lines such as `// ... existing code ...`."
            .to_string(),
        SnippetError::NotFound { segments } => {
            let mut out = String::new();
            for m in segments {
                let _ = std::fmt::Write::write_fmt(
                    &mut out,
                    format_args!(
                        "segments[{}] (snippet lines {}-{}) has no place in the file{}: none of its first or last \
                         lines is found there as a run of unchanged lines after the segments before it.\n",
                        m.index,
                        m.snippet_lines.0,
                        m.snippet_lines.1,
                        if m.searched.0 > 0 || m.searched.1 > 0 {
                            format!(" (searched after line {} up to line {})", m.searched.0, m.searched.1)
                        } else {
                            String::new()
                        }
                    ),
                );
                out.push_str(&closest(&m.closest, SNIPPET));
                out.push('\n');
            }
            out.push_str(
                "Each segment must begin or end with lines copied unchanged from the file (one to three), in file \
                 order. Read the file again and copy them exactly.",
            );
            out
        }
        SnippetError::Ambiguous {
            readings,
            total,
            capped,
        } => {
            let mut out = format!(
                "the snippet fits the file in {}{total} different ways, so where it goes is unclear:",
                if *capped { "at least " } else { "" }
            );
            for (i, r) in readings.iter().enumerate() {
                let places: Vec<String> = r
                    .segments
                    .iter()
                    .enumerate()
                    .map(|(k, (a, b))| {
                        if a == b {
                            format!("segments[{k}] at line {a}")
                        } else {
                            format!("segments[{k}] at lines {a}-{b}")
                        }
                    })
                    .collect();
                out.push_str(&format!("\n  reading {}: {}", i + 1, places.join(", ")));
            }
            if *total > readings.len() {
                out.push_str(&format!("\n  ... and {} more", total - readings.len()));
            }
            out.push_str(
                "\nAdd unchanged lines around each changed part (an enclosing function or class header, or the \
                 lines right before and after it) until only one place fits; where new code goes next to similar \
                 code, show the unchanged line on both sides of it.",
            );
            out
        }
        SnippetError::MarkerLike { lines } => format!(
            "snippet lines {} look like markers (`...`) but the file has such lines too, so each could be code \
             or stand for code left out: too many to tell. Write markers that the file does not hold, such as \
             `// ... existing code ...`.",
            lines.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ")
        ),
        SnippetError::NoChange => {
            "the snippet changes nothing: every line it shows is already in the file there.".to_string()
        }
        SnippetError::Engine(inner) => edit_error(inner),
        _ => e.to_string(),
    }
}
