//! The `edit` tool: read, decode, apply, encode, write, verify, report.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};
use surgical_core::{apply, diff, Change, EditError, Options};
use surgical_fs::{Encoding, FsError, Root};

use crate::journal::Journal;
use crate::wording;
use crate::ErrorCode;
use crate::{Config, EditReport, EditRequest, EditSuccess, ToolError, ToolResult};

/// Runs a parsed `edit` call with the default [`Config`] for `root`. On any error the file is
/// untouched.
pub fn run_edit(req: &EditRequest, root: &Path) -> ToolResult {
    run_edit_with(req, &Config::new(root))
}

/// Runs a parsed `edit` call. On any error the file is untouched.
pub fn run_edit_with(req: &EditRequest, config: &Config) -> ToolResult {
    match run(req, config) {
        Ok(s) => ToolResult::Edit(Box::new(s)),
        Err(e) => ToolResult::Error(e),
    }
}

/// SHA-256 of the concatenated `parts`, lowercase hex.
pub fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    let digest = hasher.finalize();
    let mut s = String::with_capacity(64);
    for b in digest {
        let _ = write!(s, "{b:02x}");
    }
    s
}

pub(crate) fn fs_error(e: FsError, shown: &str) -> ToolError {
    crate::args::fs_error(e, shown, "To create a new file, use the write tool.")
}

fn edit_error(e: EditError, shown: &str) -> ToolError {
    let lines = match &e {
        EditError::Ambiguous { occurrences, .. } => occurrences.iter().map(|o| o.0).collect(),
        _ => Vec::new(),
    };
    ToolError {
        code: ErrorCode::of_edit(&e),
        message: format!("{shown}: {}", wording::edit_error(&e)),
        edit_index: Some(e.edit_index()),
        path: Some(shown.to_string()),
        lines,
        hunk_index: None,
        patch_line: None,
    }
}

fn run(req: &EditRequest, config: &Config) -> Result<EditSuccess, ToolError> {
    let shown = req.path.as_str();
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown))?;
    let target = root.open(shown).map_err(|e| fs_error(e, shown))?;
    // Held from before the read until the new content is in place: another surgical process editing
    // in this directory waits instead of losing this update or having its own lost.
    let _lock = if req.dry_run {
        None
    } else {
        Some(target.lock().map_err(|e| fs_error(e, shown))?)
    };
    let (info, raw) = target.read(config.max_file_size).map_err(|e| fs_error(e, shown))?;
    // UTF-16 files are transcoded by `decode`, so their hash is taken first; for UTF-8 the decoded
    // text is the file minus its BOM, and hashing runs on the other core while the engine works.
    let utf16_hash = matches!(raw.get(..2), Some([0xff, 0xfe] | [0xfe, 0xff])).then(|| sha256_hex(&[&raw]));
    let decoded = surgical_fs::decode(raw).map_err(|e| fs_error(e.with_path(Path::new(shown)), shown))?;
    let encoding = decoded.encoding;
    let options = match req.max_strategy {
        Some(max) => Options::new().loosest_tier(max),
        None => Options::new(),
    };
    let (hash_before, applied) = std::thread::scope(|scope| {
        let hashing = scope.spawn(|| match &utf16_hash {
            Some(h) => h.clone(),
            None => sha256_hex(&[encoding.bom(), &decoded.text]),
        });
        let applied = apply(&decoded.text, &req.edits, &options);
        (hashing.join().expect("hashing does not panic"), applied)
    });
    if let Some(expected) = &req.expected_hash {
        if !expected.eq_ignore_ascii_case(&hash_before) {
            return Err(stale_error(shown, &hash_before, expected));
        }
    }
    let applied = applied.map_err(|e| edit_error(e, shown))?;
    let new_raw: Cow<'_, [u8]> = match encoding {
        Encoding::Utf8 => Cow::Borrowed(&applied.text),
        other => Cow::Owned(surgical_fs::encode(other, &applied.text).map_err(|e| fs_error(e, shown))?),
    };
    // The undo journal keeps the replaced version: as a hard link to the old file made right before
    // the rename (no copy), or, where that cannot be, from the bytes in memory. The other core
    // hashes the new content meanwhile.
    let journal = (config.undo && !req.dry_run).then(|| Journal::new(&root));
    let pending = journal.as_ref().and_then(|j| j.prepare(&info.real_path, info.len));
    let (hash_after, written) = std::thread::scope(|scope| {
        let hashing = scope.spawn(|| sha256_hex(&[&new_raw]));
        let written = if req.dry_run {
            Ok(false)
        } else {
            surgical_fs::write_atomic_keeping_old(&info, &new_raw, pending.as_ref().map(|p| p.before_path()))
        };
        (hashing.join().expect("hashing does not panic"), written)
    });
    let kept = match written {
        Ok(kept) => kept,
        Err(e) => {
            if let Some(p) = pending {
                p.discard();
            }
            return Err(fs_error(e, shown));
        }
    };
    let entry = match (&journal, pending) {
        (Some(j), Some(p)) => {
            let saved = kept
                || match encoding {
                    Encoding::Utf16Le | Encoding::Utf16Be => {
                        surgical_fs::encode(encoding, &decoded.text).is_ok_and(|raw| p.save(&[&raw]))
                    }
                    _ => p.save(&[encoding.bom(), &decoded.text]),
                };
            if saved {
                p.finish(j, &hash_before, &hash_after)
            } else {
                p.discard();
                None
            }
        }
        _ => None,
    };
    let undo_available = entry.is_some();

    let changes = applied.changes();
    let shown_diff = diff::numbered_diff(&decoded.text, &applied.text, &changes);
    // The patch is of the bytes on disk, so `git apply` works on the file itself (BOM included);
    // UTF-16 files get a patch of their text, since patches are UTF-8.
    let patch = match encoding {
        Encoding::Utf8Bom => {
            let bom = encoding.bom();
            let mut old_raw = Vec::with_capacity(bom.len() + decoded.text.len());
            old_raw.extend_from_slice(bom);
            old_raw.extend_from_slice(&decoded.text);
            let shifted: Vec<_> = changes
                .iter()
                .map(|c| {
                    Change::new(
                        c.old.start + bom.len()..c.old.end + bom.len(),
                        c.new.start + bom.len()..c.new.end + bom.len(),
                    )
                })
                .collect();
            diff::unified_patch(&old_raw, &new_raw, &shifted, shown)
        }
        _ => diff::unified_patch(&decoded.text, &applied.text, &changes, shown),
    };

    let reports: Vec<EditReport> = applied
        .edits
        .iter()
        .map(|e| {
            let first = e.occurrences.first().expect("an applied edit has an occurrence");
            let last = e.occurrences.last().expect("an applied edit has an occurrence");
            EditReport {
                index: e.index,
                strategy: e.tier.name(),
                start_line: first.new_lines.0,
                end_line: last.new_lines.1,
                old_start_line: first.old_lines.0,
                old_end_line: last.old_lines.1,
                occurrences: e.occurrences.len(),
                normalized: wording::differences(&e.differences, wording::EDIT),
            }
        })
        .collect();

    let mut text = String::new();
    let n = reports.len();
    let _ = writeln!(
        text,
        "{} {shown}: {n} edit{} applied{}.",
        if req.dry_run {
            "Dry run, nothing written. Would edit"
        } else {
            "Edited"
        },
        if n == 1 { "" } else { "s" },
        if encoding == Encoding::Utf8 {
            String::new()
        } else {
            format!(" (file encoding {} kept)", encoding.name())
        }
    );
    for r in &reports {
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
        let _ = writeln!(
            text,
            "edits[{}]: now at {lines} (matched {}{times}).",
            r.index, r.strategy
        );
        for note in &r.normalized {
            let _ = writeln!(text, "  {note}");
        }
    }
    text.push('\n');
    crate::report::push_diff(&mut text, &shown_diff.text, "the full diff is in `diff`");

    Ok(EditSuccess {
        text,
        path: shown.to_string(),
        diff: shown_diff.text,
        patch,
        first_changed_line: shown_diff.first_changed_line,
        edits: reports,
        encoding: encoding.name(),
        hash_before,
        hash_after,
        dry_run: req.dry_run,
        undo_available,
    })
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
