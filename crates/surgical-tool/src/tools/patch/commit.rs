//! The commit: every file to write checked writable, new and changed files written, deletions
//! last, the whole call one step of the undo journal; on a failure midway, what was done is undone.

use surgical_fs::{FsErrorKind, NewFile, Piece, Root};

use super::errors::file_error;
use super::files::{Files, Final};
use crate::pipeline::journal::{self, Journal, Step};
use crate::wording::patch as words;
use crate::{Config, ErrorCode, ToolError};

/// A step of the commit, remembered to undo it.
enum Done {
    Updated(usize),
    Created(usize, NewFile),
    Deleted(usize),
}

/// Writes every file, recording the call as one step of the undo journal (all its files, or the
/// step is not kept): the last cancellation check, every file to replace or delete checked
/// writable, then [`write_files`] and [`delete_files`]; on a failure, [`roll_back`] undoes what was
/// done and the error says so.
pub(super) fn commit(root: &Root, files: &mut Files, config: &Config) -> Result<(), ToolError> {
    let first = files.slots.iter().find(|s| !matches!(s.after, Final::Unchanged));
    if let Some(first) = first {
        config.cancellation.check(&first.shown)?;
    }
    // Every file to replace or delete may be written, or nothing is touched.
    for s in &files.slots {
        if let (Some(b), Final::Bytes(_) | Final::Text(..) | Final::Spliced(..) | Final::Absent) = (&s.before, &s.after)
        {
            b.info.check_writable().map_err(|e| file_error(e, &s.shown))?;
        }
    }
    let journal = config.undo.then(|| Journal::new(root));
    let mut step = journal.as_ref().and_then(|j| j.begin("apply_patch"));
    let mut done: Vec<Done> = Vec::new();
    let result =
        write_files(root, files, &mut step, &mut done).and_then(|()| delete_files(files, &mut step, &mut done));
    let journaled = journal::close(journal.as_ref(), step, result.is_ok());
    for s in &mut files.slots {
        s.journaled = journaled;
    }
    match result {
        Ok(()) => Ok(()),
        Err(error) => Err(roll_back(root, files, done, error)),
    }
}

/// The first steps of a commit: new and changed files, in slot order — `Document::commit` for a
/// file that existed (journal, atomic write), `Root::create` for a new one (recorded in the step
/// first, so that undo finds it). Each step done is pushed on `done`.
fn write_files(root: &Root, files: &Files, step: &mut Option<Step>, done: &mut Vec<Done>) -> Result<(), ToolError> {
    for k in 0..files.slots.len() {
        let s = &files.slots[k];
        let hash_after = || s.hash_after.as_ref().expect("new bytes are hashed");
        let parts: [&[u8]; 2] = match &s.after {
            Final::Bytes(bytes) => [&[], bytes],
            Final::Text(prefix, text) => [prefix, text],
            Final::Spliced(prefix, old, spliced) => {
                // The text read, with the same prefix, and the changed ranges (see `settle`).
                let b = s.before.as_ref().expect("a spliced text is the text read");
                let pieces = crate::pipeline::in_place::spliced(prefix.len(), old.len(), spliced);
                b.commit_spliced(&pieces, hash_after(), step.as_mut())
                    .map_err(|e| file_error(e, &s.shown))?;
                done.push(Done::Updated(k));
                continue;
            }
            Final::Absent | Final::Unchanged => continue,
        };
        let hash_after = hash_after();
        match &s.before {
            Some(b) => {
                b.commit_spliced(&parts.map(Piece::New), hash_after, step.as_mut())
                    .map_err(|e| file_error(e, &s.shown))?;
                done.push(Done::Updated(k));
            }
            None => {
                // Recorded before the file appears, so that undo finds it.
                if let Some(step) = step.as_mut() {
                    let index = step
                        .add(&s.real, None, 0, None)
                        .expect("a new file has no content to keep");
                    step.set_after(index, Some(hash_after.get()));
                }
                // A new file is written from one buffer (joined only when it has a BOM).
                let bytes: std::borrow::Cow<'_, [u8]> = match parts {
                    [[], rest] => rest.into(),
                    _ => parts.concat().into(),
                };
                let created = root.create(&s.real, &bytes, s.mode).map_err(|e| {
                    if let Some(step) = step.as_mut() {
                        step.drop_last();
                    }
                    file_error(e, &s.shown)
                })?;
                done.push(Done::Created(k, created));
            }
        }
    }
    Ok(())
}

/// The last steps of a commit: deletions, each file's content saved (and synced) in the journal
/// step before `surgical_fs::remove` (`stale` if another program changed it since it was read).
fn delete_files(files: &Files, step: &mut Option<Step>, done: &mut Vec<Done>) -> Result<(), ToolError> {
    for k in 0..files.slots.len() {
        let s = &files.slots[k];
        let (Some(b), Final::Absent) = (&s.before, &s.after) else {
            continue;
        };
        // The content is saved (and synced) before the file goes.
        let index = step
            .as_mut()
            .and_then(|step| step.add(&s.real, Some(b.hash.get()), b.info.len, Some(b.info.mode)));
        if let (Some(step), Some(index)) = (step.as_mut(), index) {
            step.save(index, &b.parts());
            step.set_after(index, None);
        }
        surgical_fs::remove(&b.info).map_err(|e| {
            if let (Some(step), Some(_)) = (step.as_mut(), index) {
                step.drop_last();
            }
            match e.kind() {
                FsErrorKind::Changed => ToolError {
                    path: Some(s.shown.clone()),
                    ..ToolError::new(ErrorCode::Stale, words::deleted_file_changed(&s.shown))
                },
                _ => file_error(e, &s.shown),
            }
        })?;
        done.push(Done::Deleted(k));
    }
    Ok(())
}

/// Undoes the steps of a commit that stopped at `error`, newest first, and says in the error
/// whether that worked.
fn roll_back(root: &Root, files: &mut Files, done: Vec<Done>, mut error: ToolError) -> ToolError {
    // Undo what was done, newest first.
    let steps = done.len();
    let mut failed = Vec::new();
    for step in done.into_iter().rev() {
        match step {
            Done::Updated(k) => {
                let s = &files.slots[k];
                let b = s.before.as_ref().expect("an updated file existed");
                let restored = root
                    .open(&s.shown)
                    .and_then(|t| t.read(u64::MAX).map(|(info, _)| info))
                    .and_then(|info| surgical_fs::write_atomic(&info, &b.bytes()));
                if let Err(e) = restored {
                    failed.push(words::not_restored(&s.shown, None, &e));
                }
            }
            Done::Created(k, created) => {
                if let Err(e) = created.remove() {
                    failed.push(words::not_restored(&files.slots[k].shown, Some("created"), &e));
                }
            }
            Done::Deleted(k) => {
                let s = &files.slots[k];
                let b = s.before.as_ref().expect("a deleted file existed");
                if let Err(e) = root.create(&s.real, &b.bytes(), Some(b.info.mode)) {
                    failed.push(words::not_restored(&s.shown, Some("deleted"), &e));
                }
            }
        }
    }
    let note = words::rolled_back(steps, &failed);
    if error.message.contains(words::NOTHING_WRITTEN) {
        error.message = error.message.replace(words::NOTHING_WRITTEN, &note);
    } else {
        error.message = format!("{} {note}", error.message);
    }
    error
}
