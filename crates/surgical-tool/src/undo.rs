//! The `undo` tool: put back what a file held before the last edit made through surgical.

use std::fmt::Write as _;
use std::sync::Arc;

use surgical_core::diff;
use surgical_fs::{Decoding, Root};

use crate::document::{file_patch, Digest, Document, Text};
use crate::edit::{fs_error, stale_error};
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
        Ok(s) => ToolResult::Edit(Box::new(s.bounded())),
        Err(e) => ToolResult::Error(e),
    }
}

fn run(shown: &str, config: &Config) -> Result<EditSuccess, ToolError> {
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown))?;
    let (_lock, doc) = Document::open(&root, shown, true, config.max_file_size).map_err(|e| fs_error(e, shown))?;
    let journal = Journal::new(&root);
    let Some(entry) = journal.latest(&doc.info.real_path) else {
        return Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::new(
                ErrorCode::NoUndo,
                format!(
                    "{shown} has no edit to undo: surgical's journal ({}/undo in the root) holds nothing for it. \
                     Only edits made through surgical (of files up to {} MiB) can be undone.",
                    crate::journal::JOURNAL_DIR,
                    crate::journal::MAX_FILE_BYTES >> 20
                ),
            )
        });
    };
    let hash_now = doc.hash.get().to_string();
    if hash_now != entry.meta.hash_after {
        let mut e = stale_error(shown, &hash_now, &entry.meta.hash_after);
        e.message = format!(
            "{shown} changed since surgical last edited it (its hash is now {hash_now}, the edit left \
             {}), so undoing would throw that change away. Nothing was restored.",
            entry.meta.hash_after
        );
        return Err(e);
    }
    let before = Arc::new(entry.before().map_err(|e| {
        ToolError::new(
            ErrorCode::Io,
            format!("could not read the undo journal entry for {shown}: {e}"),
        )
    })?);
    // The restored version is not journaled: undoing an undo is not offered.
    let hash_after = Digest::of(&before);
    config.cancellation.check(shown)?;
    doc.commit(&before, &hash_after, None).map_err(|e| fs_error(e, shown))?;
    entry.discard();
    let older = journal.latest(&doc.info.real_path).is_some();
    let hash_after = hash_after.get().to_string();
    let restored_len = before.len();
    // Written and hashed: the bytes are decoded in place for the diff.
    let (shown_diff, patch, first_changed_line, encoding) =
        restored_diff(doc.text(), Arc::unwrap_or_clone(before), shown);
    let mut text = format!(
        "Restored {shown} to its content before the last surgical edit ({restored_len} bytes).{}\n\n",
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
        hash_after,
        dry_run: false,
        undo_available: older,
        patch_truncated: false,
    })
}

/// What the undo changed back (numbered diff, patch, first changed line) and the encoding of the
/// restored version; no diff unless both versions decode (the encoding is then `unknown` when the
/// restored one does not).
fn restored_diff(now: Option<&Text>, restored: Vec<u8>, shown: &str) -> (String, String, Option<usize>, &'static str) {
    let then = match surgical_fs::decode_keeping(restored) {
        Decoding::Text(d) | Decoding::Transcoded(d, _) => Text {
            encoding: d.encoding,
            text: Arc::new(d.text),
        },
        Decoding::Refused(..) => return (String::new(), String::new(), None, "unknown"),
    };
    let Some(now) = now else {
        return (String::new(), String::new(), None, then.encoding.name());
    };
    let d = diff::numbered_diff(&now.text, &then.text, &diff::whole_change(&now.text, &then.text));
    let patch = file_patch(Some(now.version(None)), Some(then.version(None)), None, shown);
    (d.text, patch, d.first_changed_line, then.encoding.name())
}
