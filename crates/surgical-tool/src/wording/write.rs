//! The `write` tool's sentences: what is wrong with its arguments, why a write was refused, and
//! the result's `text` (what was written, what was kept from the file, the diff).

use std::fmt::Write as _;

use surgical_core::lines::Endings;
use surgical_fs::Encoding;

use crate::contract::eol::style;
use crate::LineEnding;

/// A call without `content`.
pub(crate) const CONTENT_MISSING: &str = "content is missing: give the whole new text of the file as content (an \
                                          empty string makes an empty file). To change part of a file, use the \
                                          edit tool.";

/// A `lineEnding` that is not `lf`, `crlf` or `cr`.
pub(crate) fn unknown_line_ending(name: &str) -> String {
    format!(
        "lineEnding `{}` is not one surgical writes; use lf, crlf or cr, or leave it out to keep the \
         file's (LF for a new file)",
        name.escape_debug()
    )
}

/// An `encoding` that is not one surgical writes.
pub(crate) fn unknown_encoding(name: &str) -> String {
    format!(
        "encoding `{name}` is not one surgical writes; use utf-8, utf-8-bom, utf-16le or utf-16be, or \
         leave it out to keep the file's (utf-8 for a new file)"
    )
}

/// `expectedHash` given for a file that no longer exists.
pub(crate) fn gone(shown: &str, expected: &str) -> String {
    format!(
        "{shown} does not exist any more, but you gave expectedHash {expected}: it was deleted or moved \
         since you read it. Check the path; to create it anew, call write without expectedHash."
    )
}

/// New content over the size limit.
pub(crate) fn too_large(shown: &str, bytes: usize, limit: u64) -> String {
    format!(
        "the new content of {shown} is {bytes} bytes, over the limit of {limit} bytes; nothing was written. \
         Write a smaller file."
    )
}

/// Content holding NUL, which would make a UTF-8 file binary (at one-based `line`).
pub(crate) fn nul_in_content(line: usize) -> String {
    format!(
        "content has a NUL character (U+0000) on line {line}; a UTF-8 file holding NUL bytes is binary to \
         surgical, so it could not be read or edited afterwards. Remove it, or write with encoding \
         utf-8-bom, utf-16le or utf-16be."
    )
}

/// `expectedHash` differs from the file's hash.
pub(crate) fn stale(shown: &str, hash: &str, expected: &str) -> String {
    format!(
        "{shown} changed since you read it (its hash is now {hash}, you expected {expected}); nothing \
         was written. Read it again and decide whether to overwrite what it holds now."
    )
}

/// What a refusal to replace an undecodable file adds to the file layer's message.
pub(crate) const NOT_REPLACED_UNDECODABLE: &str = ". write does not replace a file it cannot show a diff of; if \
                                                   you mean to replace it, delete or rename it first.";

/// The `text` of the result when a file was created (`about`: [`super::read::describe`]).
pub(crate) fn created(shown: &str, dry_run: bool, total_lines: usize, about: &str) -> String {
    let verb = if dry_run {
        "Dry run, nothing written. Would create"
    } else {
        "Created"
    };
    format!(
        "{verb} {shown}: {total_lines} {} ({about}).\n",
        plural(total_lines, "line")
    )
}

/// The `text` of the result when the file held the content already.
pub(crate) fn unchanged(shown: &str, total_lines: usize, about: &str) -> String {
    format!(
        "{shown} already holds exactly this content ({total_lines} {}, {about}); nothing was written.\n",
        plural(total_lines, "line")
    )
}

/// The `text` of the result when a file's content was replaced: the headline, `notes`, and the
/// diff (or why there is none: not `diffable`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn replaced(
    shown: &str,
    dry_run: bool,
    old_lines: usize,
    total_lines: usize,
    about: &str,
    notes: &[String],
    diffable: bool,
    diff: &str,
) -> String {
    let mut out = String::new();
    let lines = plural(old_lines, "line");
    if dry_run {
        let _ = writeln!(
            out,
            "Dry run, nothing written. Would replace the {old_lines} {lines} of {shown} with {total_lines} \
             ({about})."
        );
    } else {
        let _ = writeln!(
            out,
            "Wrote {shown}: replaced its {old_lines} {lines} with {total_lines} ({about})."
        );
    }
    for note in notes {
        let _ = writeln!(out, "{note}");
    }
    out.push('\n');
    if !diffable {
        let _ = writeln!(
            out,
            "(No diff: nearly every line changed, too many to diff line by line. Read the file to see it.)"
        );
    }
    super::output::push_diff(&mut out, diff, super::output::WHOLE_DIFF_IN_DIFF);
    out
}

/// What was kept from the file, what was changed on request, and what the model should know: the
/// line ending written (`asked`: whether the call named it) against the file's `old_endings`, the
/// encoding written against the file's, and bytes of the file that were not UTF-8.
pub(crate) fn notes(
    asked: Option<LineEnding>,
    line_ending: LineEnding,
    old_endings: Endings,
    encoding: Encoding,
    old_encoding: Encoding,
    old_was_utf8: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    let upper = line_ending.name().to_uppercase();
    match (asked, style(old_endings)) {
        (Some(_), style) if style != line_ending.name() && style != "none" => notes.push(format!(
            "Line endings: {upper} as you asked (the file had {}).",
            if style == "mixed" {
                "mixed ones".to_string()
            } else {
                style.to_uppercase()
            }
        )),
        (None, "mixed") => notes.push(format!(
            "Line endings: the file had mixed ones ({} CRLF, {} LF, {} CR); all lines now end in {upper}, its most \
             frequent. Pass lineEnding to choose another.",
            old_endings.crlf, old_endings.lf, old_endings.cr
        )),
        (None, style) if style != "none" => notes.push(format!("Line endings: {upper}, kept from the file.")),
        _ => {}
    }
    if encoding != old_encoding {
        notes.push(format!(
            "Encoding: {} as you asked (the file was {}).",
            encoding.name(),
            old_encoding.name()
        ));
    } else if encoding != Encoding::Utf8 {
        notes.push(format!("Encoding: {}, kept from the file.", encoding.name()));
    }
    if !old_was_utf8 {
        notes.push(
            "The file held bytes that were not valid UTF-8 (a legacy 8-bit encoding?); what was written is UTF-8."
                .to_string(),
        );
    }
    notes
}

/// `word`, or `word`s unless `n` is 1.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}
