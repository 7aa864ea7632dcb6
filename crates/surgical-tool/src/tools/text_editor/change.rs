//! The commands that change a file: `str_replace` and `insert` through the `edit` tool's pipeline
//! (same matching tiers, same byte-faithful transport, same journal), `create`, and `undo_edit`
//! through the undo journal.

use std::sync::Arc;

use surgical_core::lines::{count_lines, ends_open, line_of, line_start, next_terminator, Endings};
use surgical_core::{apply_spliced, ChangeSet, Edit, Haystack, Options, Spliced};
use surgical_fs::Root;

use super::view::{numbered, numbered_window, Budget};
use crate::pipeline::document::Digest;
use crate::pipeline::files::{fs_error, refuse_reserved};
use crate::pipeline::in_place::{run_engine, Call};
use crate::pipeline::journal::{self, Journal};
use crate::tools::read::{DEFAULT_READ_LIMIT, MAX_PAGE_BYTES};
use crate::wording::text_editor::{self as wording, OLD_STR, SNIPPET_LINES};
use crate::{Config, EditSuccess, ErrorCode, ToolError, ToolResult, WriteSuccess};

/// The name the undo journal records for changes made by this tool.
const JOURNAL_TOOL: &str = "text_editor";

/// What a snippet may show: the lines around a change (the text is cut to fit a model's context
/// afterwards, as every edit's is).
const SNIPPET_BUDGET: Budget = Budget {
    lines: DEFAULT_READ_LIMIT,
    bytes: MAX_PAGE_BYTES,
    characters: None,
};

/// Fails, in the reference implementation's words, when `shown` names a directory (`not_a_file`)
/// or, unless `may_be_missing`, nothing at all (`file_not_found`); every other case is left to the
/// pipeline, whose errors say what they are.
fn precheck(shown: &str, may_be_missing: bool, config: &Config) -> Result<(), ToolError> {
    let Ok(root) = Root::new(&config.root) else {
        return Ok(());
    };
    match root.resolve(shown) {
        Ok(real) if real.is_dir() => Err(super::view::is_directory(shown)),
        Ok(real) if !may_be_missing && std::fs::symlink_metadata(&real).is_err() => {
            Err(super::path_missing(shown, "edit"))
        }
        _ => Ok(()),
    }
}

/// What the engine closure hands the summary: the numbered snippet and the notes.
struct Placed {
    /// The snippet's lines, numbered.
    snippet: String,
    /// For `str_replace`: the tier that matched, the lines now, and what it forgave (in this
    /// tool's words).
    tier: Option<(&'static str, (usize, usize), Vec<String>)>,
}

/// `str_replace`: the one occurrence of `old_str` replaced by `new_str`, as `edit` would replace it.
pub(crate) fn str_replace(
    shown: &str,
    old_str: &str,
    new_str: &str,
    config: &Config,
) -> Result<EditSuccess, ToolError> {
    precheck(shown, false, config)?;
    let call = Call {
        shown,
        dry_run: false,
        expected_hash: None,
        tool: JOURNAL_TOOL,
    };
    let edits = [Edit::new(old_str, new_str)];
    let (mut success, placed) = run_engine(
        &call,
        config,
        |text| {
            let applied = apply_spliced(text, &edits, &Options::new()).map_err(|e| {
                let (message, lines) = wording::replace_error(&e, shown, old_str, new_str);
                ToolError {
                    path: Some(shown.to_string()),
                    lines,
                    ..ToolError::new(ErrorCode::of_edit(&e), message)
                }
            })?;
            let edit = &applied.edits[0];
            let tier = (edit.tier.name() != "exact").then(|| {
                let first = edit.occurrences.first().expect("an applied edit has an occurrence");
                let mut notes = crate::wording::engine::differences(&edit.differences, OLD_STR);
                if edit.coarse_alignment {
                    notes.push(crate::wording::engine::coarse_alignment());
                }
                (edit.tier.name(), first.new_lines, notes)
            });
            let snippet = snippet(text, &applied);
            Ok((applied, Placed { snippet, tier }))
        },
        |_, _, _, placed| {
            let mut text = wording::edited(shown);
            text.push_str(&wording::cat_n(&wording::snippet_of(shown)));
            text.push_str(&placed.snippet);
            if let Some((tier, lines, notes)) = &placed.tier {
                text.push_str(&wording::loosely_placed(tier, *lines, notes));
            }
            text.push_str(wording::REVIEW_REPLACEMENT);
            text
        },
    )?;
    // The report's notes in this tool's words, as the text has them.
    if let (Some(report), Some((_, _, notes))) = (success.edits.first_mut(), &placed.tier) {
        report.normalized = notes.clone();
    }
    Ok(success)
}

/// `insert`: `text` inserted as whole lines after line `insert_line` (0: before the first). The
/// lines take the terminator of the line they follow (else of the file), and the file keeps its
/// final line break, or its lack of one.
pub(crate) fn insert(shown: &str, insert_line: i64, text: &str, config: &Config) -> Result<EditSuccess, ToolError> {
    precheck(shown, false, config)?;
    let call = Call {
        shown,
        dry_run: false,
        expected_hash: None,
        tool: JOURNAL_TOOL,
    };
    let (success, _) = run_engine(
        &call,
        config,
        |file| {
            let total = Endings::of(file).lines();
            let after = usize::try_from(insert_line)
                .ok()
                .filter(|&n| n <= total)
                .ok_or_else(|| ToolError {
                    path: Some(shown.to_string()),
                    ..ToolError::invalid_input(wording::insert_line_range(insert_line, total))
                })?;
            let at = line_offset(file, after);
            let lines = inserted_lines(file, at, text);
            let hay = Haystack::new(file);
            let mut set = ChangeSet::new(&hay);
            let engine_error = |e: surgical_core::EditError| ToolError {
                path: Some(shown.to_string()),
                ..ToolError::new(ErrorCode::of_edit(&e), wording::insert_error(&e, shown))
            };
            set.insert_lines(at, &lines).map_err(engine_error)?;
            let applied = set.apply_spliced().map_err(engine_error)?;
            let snippet = snippet(file, &applied);
            Ok((applied, Placed { snippet, tier: None }))
        },
        |_, _, _, placed| {
            let mut text = wording::edited(shown);
            text.push_str(&wording::cat_n(wording::SNIPPET_OF_EDITED_FILE));
            text.push_str(&placed.snippet);
            text.push_str(wording::REVIEW_INSERTION);
            text
        },
    )?;
    Ok(success)
}

/// Where line `after + 1` starts (the end of the text after its last line).
fn line_offset(text: &[u8], after: usize) -> usize {
    let mut at = 0;
    for _ in 0..after {
        match next_terminator(text, at) {
            Some(t) => at = t.end,
            None => return text.len(),
        }
    }
    at
}

/// The text `insert_lines` is given so that `text` becomes whole lines at `at`: one empty line for
/// an empty text, and a final line break unless they end a file that has none.
fn inserted_lines(file: &[u8], at: usize, text: &str) -> String {
    let body = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .or_else(|| text.strip_suffix('\r'))
        .unwrap_or(text);
    let keeps_open_end = at == file.len() && ends_open(file);
    if keeps_open_end && !body.is_empty() {
        body.to_string()
    } else {
        format!("{body}\n")
    }
}

/// The lines around the changes of `applied` in the new text, numbered: [`SNIPPET_LINES`] lines
/// before the first change and after the last, built from the old text and the replacements (no
/// whole copy of the new text).
fn snippet(old: &[u8], applied: &Spliced) -> String {
    let changes = applied.changes();
    let (Some(first), Some(last)) = (changes.first(), changes.last()) else {
        return String::new();
    };
    let mut start = line_start(old, first.old.start);
    for _ in 0..SNIPPET_LINES {
        if start == 0 {
            break;
        }
        start = line_start(old, start - 1);
    }
    // The rest of the last changed line, then the lines after it.
    let mut end = last.old.end;
    let at_line_start = end == 0 || old[end - 1] == b'\n' || (old[end - 1] == b'\r' && old.get(end) != Some(&b'\n'));
    let mut after = SNIPPET_LINES;
    if !at_line_start {
        after += 1;
    }
    for _ in 0..after {
        match next_terminator(old, end) {
            Some(t) => end = t.end,
            None => {
                end = old.len();
                break;
            }
        }
    }
    let mut window = Vec::new();
    let mut cursor = start;
    for (change, bytes) in applied.replacements() {
        window.extend_from_slice(&old[cursor..change.old.start]);
        window.extend_from_slice(bytes);
        cursor = change.old.end;
    }
    window.extend_from_slice(&old[cursor..end.max(cursor)]);
    let first_line = line_of(old, start);
    let mut out = String::new();
    let shown = numbered_window(&mut out, &window, first_line, &SNIPPET_BUDGET);
    if shown.stopped_by.is_some() {
        out.push_str(&wording::snippet_clipped(shown.last + 1 - first_line));
    }
    out.push_str(&shown.notes());
    out
}

/// `create`: a new file holding `file_text` exactly (its bytes as given, in UTF-8), with missing
/// parent directories. Never replaces anything: a path that exists — even one that appears while
/// the call runs — is refused.
pub(crate) fn create(shown: &str, file_text: &str, config: &Config) -> Result<WriteSuccess, ToolError> {
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown, ""))?;
    journal::remove_orphans(&root);
    let full = root.resolve(shown).map_err(|e| fs_error(e, shown, ""))?;
    refuse_reserved(&root, &full, shown)?;
    let exists = || ToolError {
        path: Some(shown.to_string()),
        ..ToolError::invalid_input(wording::already_exists(shown))
    };
    if std::fs::symlink_metadata(&full).is_ok() {
        return Err(exists());
    }
    let bytes = file_text.as_bytes();
    if let Some(at) = memchr_nul(bytes) {
        return Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::invalid_input(wording::nul_in_file_text(line_of(bytes, at)))
        });
    }
    if bytes.len() as u64 > config.max_file_size {
        return Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::new(
                ErrorCode::TooLarge,
                wording::file_text_too_large(shown, bytes.len(), config.max_file_size),
            )
        });
    }
    let hash_after = Digest::of(&Arc::new(bytes.to_vec()));
    config.cancellation.check(shown)?;
    // The step is recorded before the file appears, so that undo finds it.
    let journal = config.undo.then(|| Journal::new(&root));
    let mut step = journal.as_ref().and_then(|j| j.begin(JOURNAL_TOOL));
    if let Some(step) = step.as_mut() {
        let index = step
            .add(&full, None, 0, None)
            .expect("a new file has no content to keep");
        step.set_after(index, Some(hash_after.get()));
    }
    let created = root.create(&full, bytes, None);
    let undo_available = journal::close(journal.as_ref(), step, created.is_ok());
    created.map_err(|e| {
        let raced =
            matches!(&e, surgical_fs::FsError::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists);
        if raced {
            exists()
        } else {
            fs_error(e, shown, "")
        }
    })?;
    let endings = Endings::of(bytes);
    Ok(WriteSuccess {
        text: wording::created(shown),
        path: shown.to_string(),
        created: true,
        hash_before: None,
        hash_after: hash_after.get().to_string(),
        encoding: surgical_fs::Encoding::Utf8.name(),
        bom: false,
        line_ending: crate::contract::eol::style(endings),
        total_lines: count_lines(bytes),
        diff: String::new(),
        patch: String::new(),
        first_changed_line: None,
        dry_run: false,
        undo_available,
        patch_truncated: false,
        syntax_errors: None,
        syntax_check: None,
    })
}

fn memchr_nul(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == 0)
}

/// `undo_edit`: the last change surgical made to the file taken back, through the undo journal
/// (with every other file the same call changed).
pub(crate) fn undo_edit(shown: &str, config: &Config) -> Result<EditSuccess, ToolError> {
    // A file the call deleted or moved away is recreated: it may be missing.
    precheck(shown, true, config)?;
    let undone = match crate::run_undo(shown, config) {
        ToolResult::Edit(success) => *success,
        ToolResult::Error(mut e) => {
            e.message = match e.code {
                ErrorCode::NoUndo => wording::no_history(shown, &e.message),
                _ => wording::undo_refused(&e.message),
            };
            return Err(e);
        }
        other => unreachable!("undo reports as an edit: {other:?}"),
    };
    // The undo's own first paragraph says what was put back (restored, recreated or removed, and
    // the same call's other files); the snippet shows the file as it is now.
    let what = undone.text.split("\n\n").next().unwrap_or_default().to_string();
    let mut text = format!("{} {what}\n", wording::undone(shown));
    if let Some(first) = undone.first_changed_line {
        let last = last_new_line(&undone.diff).unwrap_or(first).max(first);
        text.push_str(&restored_snippet(shown, first, last, config));
    }
    Ok(EditSuccess { text, ..undone })
}

/// The highest new-side line number among the added lines of a numbered diff (`+NN text`).
fn last_new_line(diff: &str) -> Option<usize> {
    diff.lines()
        .filter_map(|l| l.strip_prefix('+'))
        .filter_map(|rest| {
            let digits: String = rest.trim_start().chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<usize>().ok()
        })
        .max()
}

/// The lines `first..=last` of the file as it is now, with context, numbered; empty when the file
/// cannot be shown.
fn restored_snippet(shown: &str, first: usize, last: usize, config: &Config) -> String {
    let Ok(root) = Root::new(&config.root) else {
        return String::new();
    };
    let Ok((_, doc)) = crate::pipeline::document::Document::open(&root, shown, false, config.max_file_size) else {
        return String::new();
    };
    let Some(text) = doc.text() else {
        return String::new();
    };
    let mut out = wording::cat_n(&wording::snippet_of(shown));
    let from = first.saturating_sub(SNIPPET_LINES).max(1);
    let shown_lines = numbered(&mut out, &text.text, from, last + SNIPPET_LINES, &SNIPPET_BUDGET);
    out.push_str(&shown_lines.notes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserted_lines_keep_the_files_final_line_break_or_its_lack() {
        assert_eq!(inserted_lines(b"a\nb\n", 4, "x"), "x\n");
        assert_eq!(inserted_lines(b"a\nb", 3, "x"), "x");
        assert_eq!(inserted_lines(b"a\nb", 2, "x"), "x\n");
        assert_eq!(inserted_lines(b"a\nb", 3, ""), "\n");
        assert_eq!(inserted_lines(b"", 0, "x\r\n"), "x\n");
        assert_eq!(inserted_lines(b"a\n", 0, ""), "\n");
    }

    #[test]
    fn line_offsets_count_every_terminator() {
        let text = b"a\r\nb\rc\nd";
        assert_eq!(line_offset(text, 0), 0);
        assert_eq!(line_offset(text, 1), 3);
        assert_eq!(line_offset(text, 2), 5);
        assert_eq!(line_offset(text, 3), 7);
        assert_eq!(line_offset(text, 4), 8);
    }

    #[test]
    fn the_highest_added_line_of_a_numbered_diff() {
        assert_eq!(last_new_line(" 1 a\n-2 b\n+2 B\n+3 X\n 4 d\n"), Some(3));
        assert_eq!(last_new_line(" 1 a\n-2 b\n"), None);
    }
}
