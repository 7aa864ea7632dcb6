//! The `undo` tool: put back what the files held before the last call that changed a file through
//! surgical.

use std::collections::BTreeMap;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use surgical_core::diff;
use surgical_fs::{Decoding, FsErrorKind, NewFile, Root, Target};

use crate::pipeline::document::{file_patch, Digest, Document, Text};
use crate::pipeline::in_place::fs_error;
use crate::pipeline::journal::{Entry, FileMeta, Journal};
use crate::wording::undo::{self as words, Since, Undone};
use crate::ErrorCode;
use crate::{Config, EditSuccess, ToolError, ToolResult, UndoFile, UndoStep};

/// Undoes the last call (`edit`, `write` or `apply_patch`) that changed `path` through surgical,
/// byte for byte, and with it every other file that call changed: a patch is undone whole. A file
/// the call created is removed, one it changed or replaced gets its old content back, one it deleted
/// (or moved away) is recreated.
///
/// Refused with `stale` when any of those files changed since that call (restoring would throw the
/// change away; nothing is touched), and with `no_undo` when the journal holds nothing for the
/// file. Each undo consumes one journal entry, so a second undo goes one call further back.
///
/// The result reports the file named: `hashBefore` is its hash before the undo and `hashAfter`
/// after it (an empty string where there is no file).
pub fn run_undo(path: &str, config: &Config) -> ToolResult {
    match run(path, config) {
        Ok(s) => ToolResult::Edit(Box::new(s.bounded())),
        Err(e) => ToolResult::Error(e),
    }
}

/// What the undo journal of `config.root` holds, newest step first: what `undo` would take back,
/// one step per call.
///
/// # Errors
///
/// Those of resolving the root.
pub fn undo_history(config: &Config) -> Result<Vec<UndoStep>, ToolError> {
    let root = Root::new(&config.root).map_err(|e| fs_error(e, "."))?;
    let journal = Journal::new(&root);
    let steps = journal.entries().into_iter().rev().map(|entry| UndoStep {
        tool: entry.meta.tool.clone(),
        time: entry.meta.time,
        files: entry
            .meta
            .files
            .iter()
            .map(|f| {
                let now = surgical_fs::read_with_limit(&journal.real_path(&f.path), config.max_file_size)
                    .ok()
                    .map(|(_, bytes)| crate::sha256_hex(&[&bytes]));
                UndoFile {
                    path: f.path.clone(),
                    undo: match (&f.hash_before, &f.hash_after) {
                        (None, _) => "remove",
                        (Some(_), None) => "recreate",
                        (Some(_), Some(_)) => "restore",
                    },
                    unchanged: now == f.hash_after,
                }
            })
            .collect(),
    });
    Ok(steps.collect())
}

/// One file of the step being undone.
struct File<'a> {
    meta: &'a FileMeta,
    index: usize,
    /// The name used in messages: the path as the caller gave it for the file named, else its path
    /// relative to the root.
    shown: String,
    real: PathBuf,
    target: Option<Target>,
    /// The file as it is now (`None`: absent).
    now: Option<Document>,
    /// What it held before the call (`None`: the call created it).
    before: Option<Arc<Vec<u8>>>,
}

impl File<'_> {
    /// What undoing the call does to this file.
    fn undone(&self) -> Undone {
        match (&self.now, &self.before) {
            (Some(_), Some(_)) => Undone::Restored,
            (None, Some(_)) => Undone::Recreated,
            _ => Undone::Removed,
        }
    }
}

/// What was done, to take it back if a later file fails.
enum Done {
    Restored(usize),
    Recreated(NewFile),
    Removed(usize),
}

fn no_undo(shown: &str) -> ToolError {
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(
            ErrorCode::NoUndo,
            words::nothing_to_undo(
                shown,
                crate::pipeline::journal::MAX_FILE_BYTES >> 20,
                crate::pipeline::journal::MAX_ENTRIES,
            ),
        )
    }
}

fn stale(f: &File<'_>, tool: &str, since: Since<'_>) -> ToolError {
    ToolError {
        path: Some(f.shown.clone()),
        ..ToolError::new(ErrorCode::Stale, words::stale(&f.shown, tool, since))
    }
}

fn run(shown: &str, config: &Config) -> Result<EditSuccess, ToolError> {
    let root = Root::new(&config.root).map_err(|e| fs_error(e, shown))?;
    // Before the files are read: see `remove_orphans`.
    crate::pipeline::journal::remove_orphans(&root);
    let real = root.resolve(shown).map_err(|e| fs_error(e, shown))?;
    crate::pipeline::files::refuse_reserved(&root, &real, shown)?;
    let journal = Journal::new(&root);
    let Some(entry) = journal.latest(&real) else {
        return Err(no_undo(shown));
    };
    let tool = if entry.meta.tool.is_empty() {
        "edit"
    } else {
        entry.meta.tool.as_str()
    };
    let mut files = open(&root, &journal, &entry, &real, shown)?;
    let _locks = lock(&files)?;
    for f in &mut files {
        if let Some(t) = &f.target {
            f.now = Some(Document::read(t, config.max_file_size).map_err(|e| fs_error(e, &f.shown))?);
        }
        match (&f.meta.hash_after, &f.now) {
            (Some(h), Some(d)) if d.hash.get() == h => {}
            (None, None) => {}
            (Some(h), Some(d)) => {
                let since = Since::Changed {
                    now: d.hash.get(),
                    left: h,
                };
                return Err(stale(f, tool, since));
            }
            (Some(_), None) => return Err(stale(f, tool, Since::DeletedOrMoved)),
            (None, Some(_)) => return Err(stale(f, tool, Since::CreatedAgain)),
        }
        if f.meta.hash_before.is_some() {
            let before = entry
                .before(f.index)
                .map_err(|e| ToolError::new(ErrorCode::Io, words::journal_unreadable(&f.shown, &e)))?;
            f.before = Some(Arc::new(before));
        }
    }
    // Every file to put back or remove may be written, or nothing is touched.
    for f in &files {
        if let Some(now) = &f.now {
            now.info.check_writable().map_err(|e| fs_error(e, &f.shown))?;
        }
    }
    config.cancellation.check(shown)?;
    restore(&root, &files)?;
    entry.discard();
    report(&files, &journal, &real, shown, tool)
}

/// Opens every file of `entry` (those that exist).
fn open<'a>(
    root: &Root,
    journal: &Journal,
    entry: &'a Entry,
    real: &Path,
    shown: &str,
) -> Result<Vec<File<'a>>, ToolError> {
    let mut files = Vec::with_capacity(entry.meta.files.len());
    for (index, meta) in entry.meta.files.iter().enumerate() {
        let path = journal.real_path(&meta.path);
        let name = if path == real {
            shown.to_string()
        } else {
            meta.path.clone()
        };
        let target = match root.open(&path.to_string_lossy()) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == FsErrorKind::NotFound => None,
            Err(e) => return Err(fs_error(e, &name)),
        };
        files.push(File {
            meta,
            index,
            shown: name,
            real: path,
            target,
            now: None,
            before: None,
        });
    }
    Ok(files)
}

/// Locks the directory of every file that exists, once each, in the order of their paths (as the
/// patch transaction does).
fn lock(files: &[File<'_>]) -> Result<Vec<surgical_fs::DirLock>, ToolError> {
    let mut dirs: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (k, f) in files.iter().enumerate() {
        if let Some(t) = &f.target {
            dirs.entry(t.real_path.parent().map(Path::to_path_buf).unwrap_or_default())
                .or_insert(k);
        }
    }
    dirs.into_values()
        .map(|k| {
            let f = &files[k];
            f.target
                .as_ref()
                .expect("only files that exist")
                .lock()
                .map_err(|e| fs_error(e, &f.shown))
        })
        .collect()
}

/// Puts every file back; on a failure, takes back what was done and returns the error.
fn restore(root: &Root, files: &[File<'_>]) -> Result<(), ToolError> {
    let mut done = Vec::new();
    let mut result = Ok(());
    for (k, f) in files.iter().enumerate() {
        let step = match (&f.now, &f.before) {
            (Some(now), Some(before)) => now.commit(before, &Digest::of(before), None).map(|_| Done::Restored(k)),
            (None, Some(before)) => root.create(&f.real, before, f.meta.mode).map(Done::Recreated),
            (Some(now), None) => surgical_fs::remove(&now.info).map(|()| Done::Removed(k)),
            (None, None) => continue,
        };
        match step {
            Ok(d) => done.push(d),
            Err(e) => {
                result = Err(fs_error(e, &f.shown));
                break;
            }
        }
    }
    let Err(mut error) = result else {
        return Ok(());
    };
    let mut failed = Vec::new();
    for d in done.into_iter().rev() {
        let undone = match &d {
            Done::Restored(k) => {
                let f = &files[*k];
                let now = f.now.as_ref().expect("a restored file existed");
                root.open(&f.real.to_string_lossy())
                    .and_then(|t| t.read(u64::MAX).map(|(info, _)| info))
                    .and_then(|info| surgical_fs::write_atomic(&info, &now.bytes()))
                    .map_err(|e| e.to_string())
            }
            Done::Recreated(created) => created.remove().map_err(|e| e.to_string()),
            Done::Removed(k) => {
                let f = &files[*k];
                let now = f.now.as_ref().expect("a removed file existed");
                root.create(&f.real, &now.bytes(), Some(now.info.mode))
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
        };
        if let Err(e) = undone {
            failed.push(e);
        }
    }
    if failed.is_empty() {
        error.message.push_str(words::ABANDONED);
    } else {
        error.message.push_str(&words::stopped_midway(&failed));
    }
    Err(error)
}

fn report(
    files: &[File<'_>],
    journal: &Journal,
    real: &Path,
    shown: &str,
    tool: &str,
) -> Result<EditSuccess, ToolError> {
    let named = files.iter().find(|f| f.real == real).expect("the entry names the file");
    let older = journal.latest(real).is_some();
    let hash_now = named.now.as_ref().map_or(String::new(), |d| d.hash.get().to_string());
    let hash_after = named
        .before
        .as_ref()
        .map_or(String::new(), |b| Digest::of(b).get().to_string());
    let (shown_diff, patch, first_changed_line, encoding) = match &named.before {
        Some(before) => restored_diff(
            named.now.as_ref().and_then(Document::text),
            before.as_ref().clone(),
            shown,
        ),
        None => (
            String::new(),
            String::new(),
            None,
            named
                .now
                .as_ref()
                .and_then(|d| d.text())
                .map_or("unknown", |t| t.encoding.name()),
        ),
    };
    let others: Vec<(&str, Undone)> = files
        .iter()
        .filter(|f| f.real != real)
        .map(|f| (f.shown.as_str(), f.undone()))
        .collect();
    let bytes = named.before.as_ref().map_or(0, |b| b.len());
    let text = words::summary(shown, tool, (named.undone(), bytes), &others, older, &shown_diff);
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
        syntax_errors: None,
        syntax_check: None,
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
