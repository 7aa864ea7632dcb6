//! The pipeline of a tool that edits one file in place (`edit`, `apply_snippet`): read, decode,
//! apply, encode, write, verify, report.

use std::sync::Arc;

use surgical_core::{AppliedEdit, Spliced};
use surgical_fs::{DirLock, Encoding, FsError, Piece, Root};

use crate::pipeline::document::{Content, Digest, Document, Shared, Text};
use crate::pipeline::journal::{self, Journal};
use crate::wording;
use crate::ErrorCode;
use crate::{Config, EditReport, EditSuccess, ToolError};

/// Files at least this long have their report made on another thread while they are written; for
/// smaller ones starting a thread costs more than it saves.
const REPORT_ON_THREAD: usize = 1 << 20;

pub(crate) fn fs_error(e: FsError, shown: &str) -> ToolError {
    crate::pipeline::files::fs_error(e, shown, wording::edit::NOT_FOUND_HINT)
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

/// The pipeline of a tool that edits one file in place (`edit`, `apply_snippet`), in steps:
/// resolve, lock, read and decode ([`open`]); `engine` turns the text into its replacements, a
/// [`Spliced`] (and what else the tool reports), while the other core hashes the file;
/// `expectedHash` checked ([`check_expected_hash`]); the new version's bytes and hash
/// ([`NewVersion::of`]); journal and write atomically unless `dryRun`, the report made meanwhile
/// ([`write_and_report`]): diff, patch and reports from windows around the changes, and the `text`
/// from `summary` (encoding, edit reports, diff, the engine's extra). On any error the file is
/// untouched.
pub(crate) fn run_engine<T: Sync>(
    call: &Call<'_>,
    config: &Config,
    engine: impl FnOnce(&[u8]) -> Result<(Spliced, T), ToolError>,
    summary: impl Fn(Encoding, &[EditReport], &str, &T) -> String + Sync,
) -> Result<(EditSuccess, T), ToolError> {
    crate::pipeline::timings::start();
    let shown = call.shown;
    let (root, _lock, doc) = open(call, config)?;
    let old = match &doc.content {
        Content::Text(old) => old,
        Content::Undecodable(e) => {
            return Err(crate::pipeline::files::fs_error_of(
                e,
                shown,
                wording::edit::NOT_FOUND_HINT,
            ))
        }
    };
    let encoding = old.encoding;
    // The engine runs while the other core hashes the file. It returns the replacements, not the
    // new text: the new version is the old one with a few ranges replaced, and is written, hashed,
    // diffed and reported as such.
    let applied = engine(&old.text);
    crate::pipeline::timings::mark("engine");
    check_expected_hash(call, &doc)?;
    let (applied, extra) = applied?;
    // The syntax check, before anything is written: a call that asked to refuse an edit that
    // breaks the syntax stops here.
    let syntax = crate::pipeline::syntax::check_spliced(config, shown, &old.text, &applied);
    if syntax.refuses(config) {
        return Err(crate::pipeline::syntax::refusal([(shown, &syntax)], false));
    }
    let applied = Arc::new(applied);
    let new = NewVersion::of(&doc, old, &applied, shown)?;
    // What the call reports: the diffs of windows around the changes (no whole copy of the new
    // text), the edits' reports and the text.
    let report = || {
        let began = std::time::Instant::now();
        let windows = applied.windows(&old.text);
        // Long lines are cut here, around their changes, rather than rendered whole and cut after.
        let cut = crate::pipeline::bounded::line_cut();
        let shown_diff = windows.numbered_diff_cut(&cut);
        let (patch, patch_cut) = windows.unified_patch_cut(patch_prefix(encoding), shown, &cut);
        drop(windows);
        let reports = edit_reports(&applied.edits);
        let mut text = summary(encoding, &reports, &shown_diff.text, &extra);
        crate::pipeline::syntax::insert_before_diff(&mut text, &syntax.text);
        crate::pipeline::timings::took("diff and report", began);
        (shown_diff, (patch, patch_cut), reports, text)
    };
    let (undo_available, (shown_diff, (patch, patch_truncated), reports, text)) = if call.dry_run {
        (false, report())
    } else {
        write_and_report(call, config, &root, (&doc, old, &applied), &new, &report)?
    };
    crate::pipeline::timings::mark("report awaited");
    let hash_before = doc.hash.get().to_string();
    crate::pipeline::timings::mark("hashes awaited");
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
            hash_after: new.hash.get().to_string(),
            dry_run: call.dry_run,
            undo_available,
            patch_truncated,
            syntax_errors: syntax.errors,
            syntax_check: syntax.note,
        },
        extra,
    ))
}

/// The first step: the path resolved inside the root (the journal's paths refused), its directory
/// locked unless `dryRun` (the lock is held until the new content is in place), the file read and
/// decoded, its hash started on the other core.
fn open(call: &Call<'_>, config: &Config) -> Result<(Root, Option<DirLock>, Document), ToolError> {
    let shown = call.shown;
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown))?;
    if !call.dry_run {
        // Before the file is read: see `remove_orphans`.
        crate::pipeline::journal::remove_orphans(&root);
    }
    crate::pipeline::files::refuse_reserved_name(&root, shown)?;
    let (lock, doc) =
        Document::open(&root, shown, !call.dry_run, config.max_file_size).map_err(|e| fs_error(e, shown))?;
    Ok((root, lock, doc))
}

/// `stale` unless the file's hash is the call's `expectedHash`. Without `expectedHash` nothing
/// waits for the old hash before the write: it is finished while the new version is written.
fn check_expected_hash(call: &Call<'_>, doc: &Document) -> Result<(), ToolError> {
    if let Some(expected) = call.expected_hash {
        let now = doc.hash.get();
        if !expected.eq_ignore_ascii_case(now) {
            return Err(stale_error(call.shown, now, expected));
        }
    }
    Ok(())
}

/// The new version of the file, as it is written and hashed.
struct NewVersion {
    /// Its bytes when they are not the old ones spliced: UTF-16, encoded from the old text and the
    /// replacements. `None` where the
    /// bytes on disk are the text's (UTF-8, after any BOM): the new version is the old file with
    /// the changed ranges replaced, and is written as such.
    bytes: Option<Shared>,
    /// Its SHA-256, computed on the other core while it is written.
    hash: Digest,
}

impl NewVersion {
    /// The new version of `doc` (whose text is `old`) once `applied`. Its hash is taken from the
    /// old hash's last checkpoint before the first change when the old hash is done already.
    fn of(doc: &Document, old: &Text, applied: &Arc<Spliced>, shown: &str) -> Result<NewVersion, ToolError> {
        let encoding = old.encoding;
        let streams = matches!(encoding, Encoding::Utf8 | Encoding::Utf8Bom);
        let bytes = if streams {
            None
        } else {
            // Encoded from the old text's unchanged stretches and the replacements: no new text whole
            // beside the old one and the encoded bytes.
            let parts: Vec<&[u8]> = applied.pieces(&old.text).collect();
            Some(Arc::new(
                surgical_fs::encode_parts(encoding, &parts).map_err(|e| fs_error(e, shown))?,
            ))
        };
        let hash = match &bytes {
            Some(bytes) => Digest::of(bytes),
            None => doc.hash.spliced(encoding.bom(), &old.text, applied),
        };
        Ok(NewVersion { bytes, hash })
    }
}

/// The writing step: the last cancellation check, the journal step, the atomic write (the old
/// bytes spliced, or UTF-16 whole), and, for a file of [`REPORT_ON_THREAD`] bytes or more, the
/// report made on another thread meanwhile, since most of a large file's write is the fsync
/// waiting for the disk; it is returned only once the write succeeded. Whether undo can restore
/// the old content, and the report.
fn write_and_report<R: Send>(
    call: &Call<'_>,
    config: &Config,
    root: &Root,
    (doc, old, applied): (&Document, &Text, &Spliced),
    new: &NewVersion,
    report: &(dyn Fn() -> R + Sync),
) -> Result<(bool, R), ToolError> {
    let shown = call.shown;
    config.cancellation.check(shown)?;
    std::thread::scope(|scope| {
        let reporting = (old.text.len() >= REPORT_ON_THREAD).then(|| scope.spawn(report));
        let journal = config.undo.then(|| Journal::new(root));
        let mut step = journal.as_ref().and_then(|j| j.begin(call.tool));
        let written = match &new.bytes {
            Some(bytes) => doc.commit(bytes, &new.hash, step.as_mut()),
            None => doc.commit_spliced(
                &spliced(old.encoding.bom().len(), old.text.len(), applied),
                &new.hash,
                step.as_mut(),
            ),
        };
        let kept = journal::close(journal.as_ref(), step, matches!(written, Ok(true)));
        let reported = reporting.map(|thread| thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        written.map_err(|e| fs_error(e, shown))?;
        Ok((kept, reported.unwrap_or_else(report)))
    })
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
                    let mut notes = wording::engine::differences(&e.differences, wording::EDIT);
                    if e.coarse_alignment {
                        notes.push(wording::engine::coarse_alignment());
                    }
                    notes
                },
                coarse_alignment: e.coarse_alignment,
            }
        })
        .collect()
}

pub(crate) fn stale_error(shown: &str, now: &str, expected: &str) -> ToolError {
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(ErrorCode::Stale, wording::edit::stale(shown, now, expected))
    }
}
