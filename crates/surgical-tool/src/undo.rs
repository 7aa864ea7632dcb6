//! The `undo` tool: put back what a file held before the last edit made through surgical.

use std::fmt::Write as _;

use surgical_core::diff;
use surgical_fs::Root;

use crate::edit::{fs_error, sha256_hex, stale_error};
use crate::journal::Journal;
use crate::ErrorCode;
use crate::{Config, EditSuccess, ToolError, ToolResult};

/// Restores `path` to its content before the last edit surgical made to it, byte for byte.
///
/// Refused with `stale` when the file changed since that edit (restoring would throw the change
/// away), and with `no_undo` when the journal holds nothing for the file. Each undo consumes one
/// journal entry, so a second undo goes one edit further back.
pub fn run_undo(path: &str, config: &Config) -> ToolResult {
    match run(path, config) {
        Ok(s) => ToolResult::Edit(Box::new(s)),
        Err(e) => ToolResult::Error(e),
    }
}

fn run(shown: &str, config: &Config) -> Result<EditSuccess, ToolError> {
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown))?;
    let target = root.open(shown).map_err(|e| fs_error(e, shown))?;
    let _lock = target.lock().map_err(|e| fs_error(e, shown))?;
    let (info, current) = target.read(config.max_file_size).map_err(|e| fs_error(e, shown))?;
    let journal = Journal::new(&root);
    let Some(entry) = journal.latest(&info.real_path) else {
        return Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::new(
                ErrorCode::NoUndo,
                format!(
                    "{shown} has no edit to undo: surgical's journal ({}/undo in the root) holds nothing for it. \
                     Only edits made through surgical (of files up to {} MiB) can be undone.",
                    crate::JOURNAL_DIR,
                    crate::UNDO_MAX_FILE_BYTES >> 20
                ),
            )
        });
    };
    let hash_now = sha256_hex(&[&current]);
    if hash_now != entry.meta.hash_after {
        let mut e = stale_error(shown, &hash_now, &entry.meta.hash_after);
        e.message = format!(
            "{shown} changed since surgical last edited it (its hash is now {hash_now}, the edit left \
             {}), so undoing would throw that change away. Nothing was restored.",
            entry.meta.hash_after
        );
        return Err(e);
    }
    let before = entry.before().map_err(|e| {
        ToolError::new(
            ErrorCode::Io,
            format!("could not read the undo journal entry for {shown}: {e}"),
        )
    })?;
    surgical_fs::write_atomic(&info, &before).map_err(|e| fs_error(e, shown))?;
    entry.discard();
    let older = journal.latest(&info.real_path).is_some();

    // Show what changed back, as text when both versions decode alike.
    let decoded = (
        surgical_fs::decode(current.clone()),
        surgical_fs::decode(before.clone()),
    );
    let (shown_diff, patch, first_changed_line, encoding) = match decoded {
        (Ok(now), Ok(then)) if now.encoding == then.encoding => {
            let changes = diff::whole_change(&now.text, &then.text);
            let d = diff::numbered_diff(&now.text, &then.text, &changes);
            // The patch is of the bytes on disk where those are UTF-8 (BOM included).
            let patch = match then.encoding {
                surgical_fs::Encoding::Utf8 | surgical_fs::Encoding::Utf8Bom => {
                    diff::unified_patch(&current, &before, &diff::whole_change(&current, &before), shown)
                }
                _ => diff::unified_patch(&now.text, &then.text, &changes, shown),
            };
            (d.text, patch, d.first_changed_line, then.encoding.name())
        }
        (_, then) => (
            String::new(),
            String::new(),
            None,
            then.map_or("unknown", |d| d.encoding.name()),
        ),
    };
    let mut text = format!(
        "Restored {shown} to its content before the last surgical edit ({} bytes).{}\n\n",
        before.len(),
        if older { " An older edit can be undone too." } else { "" }
    );
    let _ = write!(text, "{shown_diff}");
    Ok(EditSuccess {
        text,
        path: shown.to_string(),
        diff: shown_diff,
        patch,
        first_changed_line,
        edits: Vec::new(),
        encoding,
        hash_before: hash_now,
        hash_after: sha256_hex(&[&before]),
        dry_run: false,
        undo_available: older,
    })
}
