//! The `edit` tool: read, decode, apply, encode, write, verify, report.

use std::fmt::Write as _;
use std::sync::Arc;

use surgical_core::{apply_spliced, AppliedEdit, EditError, Options, Spliced};
use surgical_fs::{Encoding, FsError, Piece, Root};

use crate::document::{Content, Digest, Document, Text};
use crate::journal::{self, Journal};
use crate::wording;
use crate::ErrorCode;
use crate::{Config, EditReport, EditRequest, EditSuccess, ToolError, ToolResult};

/// Runs a parsed `edit` call. On any error the file is untouched.
pub fn run_edit_with(req: &EditRequest, config: &Config) -> ToolResult {
    match run(req, config) {
        Ok(s) => ToolResult::Edit(Box::new(s.bounded())),
        Err(e) => ToolResult::Error(e),
    }
}

/// Files at least this long have their report made on another thread while they are written; for
/// smaller ones starting a thread costs more than it saves.
const REPORT_ON_THREAD: usize = 1 << 20;

/// What a missing file's error adds for `edit` and `undo`.
const NOT_FOUND_HINT: &str = "To create a new file, use the write tool.";

pub(crate) fn fs_error(e: FsError, shown: &str) -> ToolError {
    crate::args::fs_error(e, shown, NOT_FOUND_HINT)
}

pub(crate) fn edit_error(e: EditError, shown: &str, words: crate::Words) -> ToolError {
    let vocabulary = match words {
        crate::Words::CommandLine => wording::COMMAND_LINE,
        _ => wording::EDIT,
    };
    let lines = match &e {
        EditError::Ambiguous { occurrences, .. } => occurrences.iter().map(|o| o.0).collect(),
        EditError::Elision {
            problem: surgical_core::ElisionProblem::Ambiguous { at, .. },
            ..
        } => at.clone(),
        _ => Vec::new(),
    };
    ToolError {
        code: ErrorCode::of_edit(&e),
        message: format!("{shown}: {}", wording::edit_error_in(&e, vocabulary)),
        edit_index: Some(e.edit_index()),
        path: Some(shown.to_string()),
        lines,
        hunk_index: None,
        patch_line: None,
    }
}

fn run(req: &EditRequest, config: &Config) -> Result<EditSuccess, ToolError> {
    let options = options(req);
    let call = Call {
        shown: req.path.as_str(),
        dry_run: req.dry_run,
        expected_hash: req.expected_hash.as_deref(),
        tool: "edit",
    };
    let (success, ()) = run_engine(
        &call,
        config,
        |text| {
            apply_spliced(text, &req.edits, &options)
                .map(|a| (a, ()))
                .map_err(|e| edit_error(e, call.shown, config.words))
        },
        |encoding, reports, diff, ()| summary(req, encoding, reports, diff),
    )?;
    Ok(success)
}

/// What a call that edits one file in place says about itself.
pub(crate) struct Call<'a> {
    /// The path as the caller wrote it.
    pub shown: &'a str,
    pub dry_run: bool,
    pub expected_hash: Option<&'a str>,
    /// The tool's name, for the undo journal.
    pub tool: &'static str,
}

/// The pipeline of a tool that edits one file in place (`edit`, `apply_snippet`): resolve, lock,
/// read and decode; `engine` turns the text into its replacements, a [`Spliced`] (and what else
/// the tool reports); `expectedHash` checked; encode, journal and write atomically unless
/// `dryRun`; diff, patch and reports from windows around the changes, and the `text` from
/// `summary` (encoding, edit reports, diff, the engine's extra). On any error the file is
/// untouched.
pub(crate) fn run_engine<T: Sync>(
    call: &Call<'_>,
    config: &Config,
    engine: impl FnOnce(&[u8]) -> Result<(Spliced, T), ToolError>,
    summary: impl Fn(Encoding, &[EditReport], &str, &T) -> String + Sync,
) -> Result<(EditSuccess, T), ToolError> {
    crate::timings::start();
    let shown = call.shown;
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown))?;
    if !call.dry_run {
        // Before the file is read: see `remove_orphans`.
        crate::journal::remove_orphans(&root);
    }
    crate::args::refuse_reserved_name(&root, shown)?;
    let (_lock, doc) =
        Document::open(&root, shown, !call.dry_run, config.max_file_size).map_err(|e| fs_error(e, shown))?;
    let old = match &doc.content {
        Content::Text(old) => old,
        Content::Undecodable(e) => return Err(crate::args::fs_error_of(e, shown, NOT_FOUND_HINT)),
    };
    let encoding = old.encoding;
    // The engine runs while the other core hashes the file. It returns the replacements, not the
    // new text: the new version is the old one with a few ranges replaced, and is written, hashed,
    // diffed and reported as such.
    let applied = engine(&old.text);
    crate::timings::mark("engine");
    // Without `expectedHash` nothing waits for the old hash before the write: it is finished
    // while the new version is written.
    if let Some(expected) = call.expected_hash {
        let now = doc.hash.get();
        if !expected.eq_ignore_ascii_case(now) {
            return Err(stale_error(shown, now, expected));
        }
    }
    let (applied, extra) = applied?;
    let applied = Arc::new(applied);
    // Where the bytes on disk are the text's bytes (UTF-8, after any BOM), the new version is the
    // old file with the changed ranges replaced and is written as such; UTF-16 is encoded whole.
    let streams = matches!(encoding, Encoding::Utf8 | Encoding::Utf8Bom);
    let new_bytes = if streams {
        None
    } else {
        let new = Text {
            encoding,
            text: Arc::new(applied.text(&old.text)),
        };
        Some(new.encoded().map_err(|e| fs_error(e, shown))?)
    };
    // The other core hashes the new content while it is written: from the old hash's last
    // checkpoint before the first change when the old hash is done already.
    let bom = encoding.bom();
    let hash_after = match &new_bytes {
        Some(bytes) => Digest::of(bytes),
        None => doc.hash.spliced(bom, &old.text, &applied),
    };
    // What the call reports (the diffs of windows around the changes: no whole copy of the new
    // text) is made on another thread while this one writes, since most of a large file's write is
    // the fsync waiting for the disk. It is returned only once the write succeeded.
    let report = || {
        let began = std::time::Instant::now();
        let windows = applied.windows(&old.text);
        let shown_diff = windows.numbered_diff();
        let patch = windows.unified_patch(patch_prefix(encoding), shown);
        drop(windows);
        let reports = edit_reports(&applied.edits);
        let text = summary(encoding, &reports, &shown_diff.text, &extra);
        crate::timings::took("diff and report", began);
        (shown_diff, patch, reports, text)
    };
    let (undo_available, (shown_diff, patch, reports, text)) = if call.dry_run {
        (false, report())
    } else {
        config.cancellation.check(shown)?;
        std::thread::scope(|scope| {
            let reporting = (old.text.len() >= REPORT_ON_THREAD).then(|| scope.spawn(report));
            let journal = config.undo.then(|| Journal::new(&root));
            let mut step = journal.as_ref().and_then(|j| j.begin(call.tool));
            let written = match &new_bytes {
                Some(bytes) => doc.commit(bytes, &hash_after, step.as_mut()),
                None => doc.commit_spliced(
                    &spliced(bom.len(), old.text.len(), &applied),
                    &hash_after,
                    step.as_mut(),
                ),
            };
            let kept = journal::close(journal.as_ref(), step, matches!(written, Ok(true)));
            let reported =
                reporting.map(|thread| thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            written.map_err(|e| fs_error(e, shown))?;
            Ok((kept, reported.unwrap_or_else(report)))
        })?
    };
    crate::timings::mark("report awaited");
    let hash_before = doc.hash.get().to_string();
    crate::timings::mark("hashes awaited");
    Ok((
        EditSuccess {
            text,
            path: shown.to_string(),
            diff: shown_diff.text,
            patch,
            first_changed_line: shown_diff.first_changed_line,
            edits: reports,
            encoding: encoding.name(),
            hash_before,
            hash_after: hash_after.get().to_string(),
            dry_run: call.dry_run,
            undo_available,
            patch_truncated: false,
        },
        extra,
    ))
}

/// The engine's options for `req` (its `maxStrategy`; the file's kind of text from its path, which
/// decides what the placeholder check refuses: a bare `...` line is content in prose).
pub(crate) fn options(req: &EditRequest) -> Options {
    let options = Options::new().text_kind(surgical_core::marker::TextKind::of_path(&req.path));
    match req.max_tier {
        Some(max) => options.loosest_tier(max),
        None => options,
    }
}

/// The new version of a file whose bytes on disk are a BOM of `bom` bytes and then a text of
/// `old_len` bytes: the old bytes with each change's range (in the text) replaced by its bytes in
/// `applied`. Offsets are on disk.
pub(crate) fn spliced<'a>(bom: usize, old_len: usize, applied: &'a Spliced) -> Vec<Piece<'a>> {
    let mut pieces = Vec::with_capacity(2 * applied.changes().len() + 1);
    let mut kept_from = 0;
    for (change, bytes) in applied.replacements() {
        pieces.push(Piece::Kept(kept_from..bom + change.old.start));
        pieces.push(Piece::New(bytes));
        kept_from = bom + change.old.end;
    }
    pieces.push(Piece::Kept(kept_from..bom + old_len));
    pieces
}

/// What a patch shows before the text of a file in `encoding` (the same for both versions, as an
/// edit keeps the encoding): a UTF-8 BOM, which `git apply` must see; nothing for UTF-16, whose
/// patch shows the text (see `document::file_patch`).
pub(crate) fn patch_prefix(encoding: Encoding) -> &'static [u8] {
    match encoding {
        Encoding::Utf8Bom => encoding.bom(),
        _ => b"",
    }
}

/// Where each edit landed, in request order.
pub(crate) fn edit_reports(edits: &[AppliedEdit]) -> Vec<EditReport> {
    edits
        .iter()
        .map(|e| {
            let first = e.occurrences.first().expect("an applied edit has an occurrence");
            let last = e.occurrences.last().expect("an applied edit has an occurrence");
            EditReport {
                index: e.index,
                tier: e.tier.name(),
                start_line: first.new_lines.0,
                end_line: last.new_lines.1,
                old_start_line: first.old_lines.0,
                old_end_line: last.old_lines.1,
                occurrences: e.occurrences.len(),
                normalized: {
                    let mut notes = wording::differences(&e.differences, wording::EDIT);
                    if e.coarse_alignment {
                        notes.push(wording::coarse_alignment());
                    }
                    notes
                },
                coarse_alignment: e.coarse_alignment,
            }
        })
        .collect()
}

/// The `text` of the result: one line for the call, one per edit with what was forgiven, the diff.
fn summary(req: &EditRequest, encoding: Encoding, reports: &[EditReport], diff: &str) -> String {
    let shown = req.path.as_str();
    let mut text = String::new();
    let n = reports.len();
    let _ = writeln!(
        text,
        "{} {shown}: {n} edit{} {}{}.",
        if req.dry_run {
            "Dry run, nothing written. Would edit"
        } else {
            "Edited"
        },
        if n == 1 { "" } else { "s" },
        if req.dry_run { "would apply" } else { "applied" },
        if encoding == Encoding::Utf8 {
            String::new()
        } else {
            format!(" (file encoding {} kept)", encoding.name())
        }
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
        let at = if req.dry_run { "would be at" } else { "now at" };
        let _ = writeln!(text, "edits[{}]: {at} {lines} (matched {}{times}).", r.index, r.tier);
        for note in &r.normalized {
            let _ = writeln!(text, "  {note}");
        }
    }
    text.push('\n');
    crate::report::push_diff(&mut text, diff, "the full diff is in `diff`");
    text
}

pub(crate) fn stale_error(shown: &str, now: &str, expected: &str) -> ToolError {
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(
            ErrorCode::Stale,
            format!(
                "{shown} changed since you read it (its hash is now {now}, you expected {expected}). Read it \
                 again and redo the edit against what it holds now."
            ),
        )
    }
}
