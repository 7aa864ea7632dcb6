//! One call, one transaction.
//!
//! 1. Parse the patch; resolve every name inside the root (`outside_root` otherwise) and open the
//!    files that exist.
//! 2. Lock their directories, each once (a `flock` is per open file description: two locks on one
//!    directory from one process would wait for each other), in the order of their real paths (so
//!    two processes never wait for each other either), then read every file.
//! 3. Run every operation in memory, in patch order, on the files' decoded text (an operation sees
//!    what earlier operations of the patch did to its file), and encode every file's final bytes.
//!    Any failure — a hunk not found or ambiguous, a missing file, an undecodable one — returns an
//!    error naming the file and the hunk, and nothing has been written.
//! 4. Write: new and changed files first (each with `write_atomic` or `write_new`), deletions last;
//!    the whole call is one step of the undo journal (old contents saved, created and deleted files
//!    recorded), kept only if every file of it is. If a step fails, every step already done is undone
//!    (old bytes written back, created files and directories removed, deleted files recreated), and
//!    the error says so.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use surgical_core::lines::{count_lines, with_ending, Ending, Endings};
use surgical_core::{diff, Change, Options};
use surgical_fs::{DirLock, Encoding, FsError, FsErrorKind, NewFile, Root, Target};

use super::{FileReport, HunkReport, PatchRequest, PatchSuccess};
use crate::document::{self, file_patch, sha256_hex, Digest, Document, Shared, Text, Version};
use crate::journal::{self, Journal};
use crate::wording;
use crate::ErrorCode;
use crate::{Config, ToolError};
use surgical_patch::{
    detect_format, parse, place, strip_bom, Failure, How, Hunk, HunkOutcome, Op, OpKind, ParseError, PatchFormat, Rules,
};

const NOTHING_WRITTEN: &str = "No file was changed: a patch applies to all its files or to none.";

/// A file's content at some point of the call.
#[derive(Clone, Debug)]
enum Content {
    Absent,
    Text {
        encoding: Encoding,
        text: Shared,
    },
    /// Present but not text surgical can edit (binary, UTF-32, ...): it can only be deleted or
    /// replaced. The error says why.
    Opaque(String, ErrorCode),
}

/// One file the patch touches (several names may lead to it).
struct Slot {
    /// The name the patch first used for it.
    shown: String,
    real: PathBuf,
    target: Option<Target>,
    /// The file as read, if it existed.
    before: Option<Document>,
    now: Content,
    /// The mode a file this call creates gets (a moved file keeps its source's).
    mode: Option<u32>,
    /// What the call leaves at its path, and its SHA-256 when something.
    after: Final,
    hash_after: Option<Digest>,
    /// Whether an operation changed it yet, and the last one that did.
    touched: bool,
    last_op: Option<usize>,
    /// Whether the undo journal holds its content before the call.
    journaled: bool,
}

/// What a file is at the end of the call.
enum Final {
    Absent,
    /// The bytes that were read: nothing to write.
    Unchanged,
    /// New bytes to write.
    Bytes(Shared),
}

/// What one operation did, for the report.
struct Outcome {
    path: String,
    action: &'static str,
    moved_to: Option<String>,
    before: Option<(Encoding, Shared)>,
    after: Option<(Encoding, Shared)>,
    /// The SHA-256 of `before` when it is the file as read (known already).
    hash_before: Option<String>,
    /// The replaced ranges (hunks), or `None` for a whole-file change.
    changes: Option<Vec<Change>>,
    hunks: Vec<HunkOutcome>,
    /// The slot holding the result (for `undoAvailable`).
    slot: usize,
    /// `add` over an existing file.
    replaced: bool,
    /// A move's destination's content before it was replaced.
    displaced: Option<(Encoding, Shared)>,
}

fn file_error(e: FsError, shown: &str) -> ToolError {
    let e = e.with_path(Path::new(shown));
    let message = e.to_string();
    let stop = if message.ends_with(['.', '!', '?']) { "" } else { "." };
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(ErrorCode::of_fs(&e), format!("{message}{stop} {NOTHING_WRITTEN}"))
    }
}

fn parse_error(e: ParseError, format: PatchFormat) -> ToolError {
    let at = if e.line > 0 {
        format!(" (patch line {})", e.line)
    } else {
        String::new()
    };
    ToolError {
        patch_line: (e.line > 0).then_some(e.line),
        ..ToolError::invalid_input(format!(
            "the patch could not be read as {}{at}: {} {NOTHING_WRITTEN}",
            format.name(),
            e.message
        ))
    }
}

/// A hunk that could not be placed on `text`, worded (see [`wording::placement`]).
fn hunk_error(f: Failure, text: &[u8], op: &Op, format: PatchFormat) -> ToolError {
    let (code, message, lines) = wording::placement(&f, text, format);
    let what = if format == PatchFormat::SearchReplace {
        "block"
    } else {
        "hunk"
    };
    let patch_line = match &op.kind {
        OpKind::Update { hunks, .. } | OpKind::Delete { hunks } => hunks.get(f.hunk).map(|h| h.patch_line),
        OpKind::Add { .. } => None,
    };
    let at = patch_line.map_or(String::new(), |l| format!(" (patch line {l})"));
    ToolError {
        code,
        message: format!("{}: {what} {}{at}: {message}\n{NOTHING_WRITTEN}", op.path, f.hunk),
        edit_index: None,
        path: Some(op.path.clone()),
        lines,
        hunk_index: Some(f.hunk),
        patch_line,
    }
}

fn op_error(op: &Op, code: ErrorCode, message: String) -> ToolError {
    ToolError {
        path: Some(op.path.clone()),
        patch_line: Some(op.patch_line),
        ..ToolError::new(code, format!("{message} {NOTHING_WRITTEN}"))
    }
}

/// The line ending most of `text`'s lines use (ties: LF, then CRLF; LF when it has none).
fn dominant_eol(text: &[u8]) -> Ending {
    Endings::of(text).dominant().unwrap_or(Ending::Lf)
}

struct Files {
    slots: Vec<Slot>,
    by_real: HashMap<PathBuf, usize>,
    /// Per operation: its file's slot, and the move destination's.
    of_op: Vec<(usize, Option<usize>)>,
}

impl Files {
    /// The slot for `name`, opening the file if it exists.
    fn slot(&mut self, root: &Root, name: &str) -> Result<usize, ToolError> {
        let real = root.resolve(name).map_err(|e| file_error(e, name))?;
        crate::args::refuse_reserved(root, &real, name).map_err(|mut e| {
            e.message = format!("{} {NOTHING_WRITTEN}", e.message);
            e
        })?;
        if let Some(&k) = self.by_real.get(&real) {
            return Ok(k);
        }
        let target = match root.open(name) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == FsErrorKind::NotFound => None,
            Err(e) => return Err(file_error(e, name)),
        };
        self.slots.push(Slot {
            shown: name.to_string(),
            real: real.clone(),
            target,
            before: None,
            now: Content::Absent,
            mode: None,
            after: Final::Absent,
            hash_after: None,
            touched: false,
            last_op: None,
            journaled: false,
        });
        self.by_real.insert(real, self.slots.len() - 1);
        Ok(self.slots.len() - 1)
    }

    fn open(root: &Root, ops: &[Op]) -> Result<Files, ToolError> {
        let mut files = Files {
            slots: Vec::new(),
            by_real: HashMap::new(),
            of_op: Vec::new(),
        };
        for op in ops {
            // An existing file wins among the names a unified diff may mean.
            let mut name = op.path.as_str();
            if !matches!(op.kind, OpKind::Add { .. }) && !op.alternatives.is_empty() {
                let exists = |n: &str| root.resolve(n).is_ok_and(|p| p.is_file());
                if !exists(name) {
                    if let Some(alt) = op.alternatives.iter().find(|a| exists(a)) {
                        name = alt;
                    }
                }
            }
            let src = files.slot(root, name)?;
            let dst = match &op.kind {
                OpKind::Update { move_to: Some(to), .. } => Some(files.slot(root, to)?),
                _ => None,
            };
            files.of_op.push((src, dst));
        }
        Ok(files)
    }

    /// Locks every directory holding a file that exists, once each, in the order of their paths.
    fn lock(&self) -> Result<Vec<DirLock>, ToolError> {
        let mut dirs: BTreeMap<PathBuf, usize> = BTreeMap::new();
        for (k, s) in self.slots.iter().enumerate() {
            if let Some(t) = &s.target {
                let dir = t.real_path.parent().map(Path::to_path_buf).unwrap_or_default();
                dirs.entry(dir).or_insert(k);
            }
        }
        let mut locks = Vec::with_capacity(dirs.len());
        for (_, k) in dirs {
            let s = &self.slots[k];
            let t = s.target.as_ref().expect("only slots with a target");
            locks.push(t.lock().map_err(|e| file_error(e, &s.shown))?);
        }
        Ok(locks)
    }

    fn read(&mut self, limit: u64) -> Result<(), ToolError> {
        for s in &mut self.slots {
            let Some(t) = &s.target else { continue };
            let doc = Document::read(t, limit).map_err(|e| file_error(e, &s.shown))?;
            s.now = match &doc.content {
                document::Content::Text(t) => Content::Text {
                    encoding: t.encoding,
                    text: Arc::clone(&t.text),
                },
                document::Content::Undecodable(e) => Content::Opaque(e.to_string(), ErrorCode::of_fs(e)),
            };
            s.mode = Some(doc.info.mode);
            s.before = Some(doc);
        }
        Ok(())
    }
}

/// Runs every operation in memory.
fn simulate(ops: &[Op], files: &mut Files, rules: &Rules, format: PatchFormat) -> Result<Vec<Outcome>, ToolError> {
    let mut outcomes = Vec::with_capacity(ops.len());
    for (k, op) in ops.iter().enumerate() {
        let (src, dst) = files.of_op[k];
        let now = files.slots[src].now.clone();
        let current = match &now {
            Content::Text { encoding, text } => Some((*encoding, Arc::clone(text))),
            _ => None,
        };
        // The file as read: its hash is known.
        let hash_before = match (&files.slots[src].before, files.slots[src].touched) {
            (Some(b), false) => Some(b.hash.get().to_string()),
            _ => None,
        };
        for slot in std::iter::once(src).chain(dst) {
            files.slots[slot].touched = true;
            files.slots[slot].last_op = Some(k);
        }
        match &op.kind {
            OpKind::Add { content } => {
                let (encoding, eol) = match &now {
                    Content::Text { encoding, text } => (*encoding, dominant_eol(text)),
                    _ => (Encoding::Utf8, Ending::Lf),
                };
                let text = Arc::new(with_ending(content, eol).into_owned());
                if encoding == Encoding::Utf8 && text.contains(&0) {
                    return Err(op_error(
                        op,
                        ErrorCode::InvalidInput,
                        format!(
                            "{}: the new file's content has a NUL character; a UTF-8 file holding NUL bytes is \
                             binary to surgical. Remove it.",
                            op.path
                        ),
                    ));
                }
                files.slots[src].now = Content::Text {
                    encoding,
                    text: Arc::clone(&text),
                };
                outcomes.push(Outcome {
                    hash_before,
                    path: op.path.clone(),
                    action: "add",
                    moved_to: None,
                    replaced: !matches!(now, Content::Absent),
                    displaced: None,
                    before: current,
                    after: Some((encoding, text)),
                    changes: None,
                    hunks: Vec::new(),
                    slot: src,
                });
            }
            OpKind::Delete { hunks } => {
                match &now {
                    Content::Absent => {
                        return Err(op_error(
                            op,
                            ErrorCode::FileNotFound,
                            format!("{} does not exist, so it cannot be deleted.", op.path),
                        ))
                    }
                    Content::Opaque(message, code) if !hunks.is_empty() => {
                        return Err(op_error(op, *code, message.clone()))
                    }
                    Content::Text { text, .. } if !hunks.is_empty() => {
                        let patched = place(text, hunks, rules).map_err(|f| hunk_error(f, text, op, format))?;
                        let left = surgical_core::lines::count_terminators(&patched.text)
                            + usize::from(!patched.text.is_empty() && !patched.text.ends_with(b"\n"));
                        if patched.text.iter().any(|b| !b.is_ascii_whitespace()) {
                            return Err(op_error(
                                op,
                                ErrorCode::NotFound,
                                format!(
                                    "{}: the diff deletes the file, but its removed lines do not account for all of \
                                     it ({left} lines would remain). Read the file again and give its whole content.",
                                    op.path
                                ),
                            ));
                        }
                    }
                    _ => {}
                }
                files.slots[src].now = Content::Absent;
                outcomes.push(Outcome {
                    hash_before,
                    path: op.path.clone(),
                    action: "delete",
                    moved_to: None,
                    replaced: false,
                    displaced: None,
                    before: current,
                    after: None,
                    changes: None,
                    hunks: Vec::new(),
                    slot: src,
                });
            }
            OpKind::Update {
                hunks,
                move_to,
                create_if_missing,
            } => {
                let (encoding, text, existed) = match now {
                    Content::Text { encoding, text } => (encoding, text, true),
                    Content::Absent if *create_if_missing && hunks.iter().all(|h| h.old_lines().is_empty()) => {
                        (Encoding::Utf8, Arc::new(Vec::new()), false)
                    }
                    Content::Absent => {
                        let how = match format {
                            PatchFormat::Codex => "`*** Add File:`",
                            PatchFormat::Unified => "`--- /dev/null`",
                            PatchFormat::SearchReplace => "an empty SEARCH section",
                        };
                        return Err(op_error(
                            op,
                            ErrorCode::FileNotFound,
                            format!(
                                "{} does not exist, so it cannot be updated. To create a file, use {how}.",
                                op.path
                            ),
                        ));
                    }
                    Content::Opaque(message, code) => return Err(op_error(op, code, message)),
                };
                // A BOM the hunks write as part of the first line (as git does) is the file's BOM,
                // which the text being patched leaves out.
                let before = existed.then(|| (encoding, Arc::clone(&text)));
                let mut encoding = encoding;
                let bom = (encoding == Encoding::Utf8Bom).then(|| strip_bom(hunks));
                let (new_text, changes, placed) = match &bom {
                    _ if hunks.is_empty() => (Arc::clone(&text), Vec::new(), Vec::new()),
                    Some(bom) => {
                        let (indexes, kept): (Vec<usize>, Vec<Hunk>) = bom.hunks.iter().cloned().unzip();
                        if bom.removes_bom {
                            encoding = Encoding::Utf8;
                        }
                        // Hunks that only removed the BOM are reported on the first line.
                        let bom_only = (0..hunks.len())
                            .filter(|i| !indexes.contains(i))
                            .map(HunkOutcome::bom_only);
                        if kept.is_empty() {
                            (Arc::clone(&text), Vec::new(), bom_only.collect())
                        } else {
                            let p = place(&text, &kept, rules).map_err(|mut f| {
                                f.hunk = indexes[f.hunk];
                                hunk_error(f, &text, op, format)
                            })?;
                            let mut outcomes = p.hunks;
                            for h in &mut outcomes {
                                h.index = indexes[h.index];
                            }
                            outcomes.extend(bom_only);
                            outcomes.sort_by_key(|h| h.index);
                            (Arc::new(p.text), p.changes, outcomes)
                        }
                    }
                    None => {
                        let p = place(&text, hunks, rules).map_err(|f| hunk_error(f, &text, op, format))?;
                        (Arc::new(p.text), p.changes, p.hunks)
                    }
                };
                let mut displaced = None;
                let (action, slot) = match dst.filter(|&d| d != src) {
                    Some(d) => {
                        if let Content::Text { encoding, text } = &files.slots[d].now {
                            displaced = Some((*encoding, Arc::clone(text)));
                        }
                        files.slots[d].now = Content::Text {
                            encoding,
                            text: Arc::clone(&new_text),
                        };
                        files.slots[d].mode = files.slots[src].mode;
                        files.slots[src].now = Content::Absent;
                        ("move", d)
                    }
                    None => {
                        files.slots[src].now = Content::Text {
                            encoding,
                            text: Arc::clone(&new_text),
                        };
                        (if existed { "update" } else { "add" }, src)
                    }
                };
                outcomes.push(Outcome {
                    hash_before,
                    path: op.path.clone(),
                    action,
                    moved_to: if action == "move" { move_to.clone() } else { None },
                    replaced: false,
                    displaced,
                    before,
                    after: Some((encoding, new_text)),
                    changes: Some(changes),
                    hunks: placed,
                    slot,
                });
            }
        }
    }
    settle(files)?;
    Ok(outcomes)
}

/// Settles what every file is at the end of the call, and the hash of its new bytes, before
/// anything is written.
fn settle(files: &mut Files) -> Result<(), ToolError> {
    for s in &mut files.slots {
        s.after = match &s.now {
            Content::Text { encoding, text } => {
                let text = Text {
                    encoding: *encoding,
                    text: Arc::clone(text),
                };
                match &s.before {
                    Some(b) if b.holds(&text) => Final::Unchanged,
                    _ => Final::Bytes(text.encoded().map_err(|e| file_error(e, &s.shown))?),
                }
            }
            // Only the file as read can be opaque.
            Content::Opaque(..) => Final::Unchanged,
            Content::Absent => Final::Absent,
        };
        s.hash_after = match (&s.after, &s.before) {
            (Final::Unchanged, Some(b)) => Some(Digest::known(b.hash.get().to_string())),
            (Final::Bytes(bytes), _) => Some(Digest::of(bytes)),
            _ => None,
        };
    }
    Ok(())
}

/// A step of the commit, remembered to undo it.
enum Done {
    Updated(usize),
    Created(usize, NewFile),
    Deleted(usize),
}

/// Writes every file, recording the call as one step of the undo journal (all its files, or the
/// step is not kept); on a failure, undoes what was done and returns the error.
fn commit(root: &Root, files: &mut Files, config: &Config) -> Result<(), ToolError> {
    let first = files.slots.iter().find(|s| !matches!(s.after, Final::Unchanged));
    if let Some(first) = first {
        config.cancellation.check(&first.shown)?;
    }
    // Every file to replace or delete may be written, or nothing is touched.
    for s in &files.slots {
        if let (Some(b), Final::Bytes(_) | Final::Absent) = (&s.before, &s.after) {
            b.info.check_writable().map_err(|e| file_error(e, &s.shown))?;
        }
    }
    let journal = config.undo.then(|| Journal::new(root));
    let mut step = journal.as_ref().and_then(|j| j.begin("apply_patch"));
    let mut done: Vec<Done> = Vec::new();
    let result = (|| -> Result<(), ToolError> {
        for k in 0..files.slots.len() {
            let s = &files.slots[k];
            let Final::Bytes(bytes) = &s.after else { continue };
            let hash_after = s.hash_after.as_ref().expect("new bytes are hashed");
            match &s.before {
                Some(b) => {
                    b.commit(bytes, hash_after, step.as_mut())
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
                    let created = root.create(&s.real, bytes, s.mode).map_err(|e| {
                        if let Some(step) = step.as_mut() {
                            step.drop_last();
                        }
                        file_error(e, &s.shown)
                    })?;
                    done.push(Done::Created(k, created));
                }
            }
        }
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
                        ..ToolError::new(
                            ErrorCode::Stale,
                            format!(
                                "{} changed since it was read (another program modified or replaced it), so it was \
                                 not deleted.",
                                s.shown
                            ),
                        )
                    },
                    _ => file_error(e, &s.shown),
                }
            })?;
            done.push(Done::Deleted(k));
        }
        Ok(())
    })();
    let journaled = journal::close(journal.as_ref(), step, result.is_ok());
    for s in &mut files.slots {
        s.journaled = journaled;
    }
    match result {
        Ok(()) => Ok(()),
        Err(error) => Err(roll_back(root, files, done, error)),
    }
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
                    failed.push(format!("{}: {e}", s.shown));
                }
            }
            Done::Created(k, created) => {
                if let Err(e) = created.remove() {
                    failed.push(format!("{} (created): {e}", files.slots[k].shown));
                }
            }
            Done::Deleted(k) => {
                let s = &files.slots[k];
                let b = s.before.as_ref().expect("a deleted file existed");
                if let Err(e) = root.create(&s.real, &b.bytes(), Some(b.info.mode)) {
                    failed.push(format!("{} (deleted): {e}", s.shown));
                }
            }
        }
    }
    let note = if failed.is_empty() && steps == 0 {
        NOTHING_WRITTEN.to_string()
    } else if failed.is_empty() {
        format!(
            "Writing stopped there, and the {} written before it {} restored: no file was changed.",
            plural(steps, "file"),
            if steps == 1 { "was" } else { "were" }
        )
    } else {
        format!(
            "Writing failed midway, and restoring these files failed too; check them: {}",
            failed.join("; ")
        )
    };
    if error.message.contains(NOTHING_WRITTEN) {
        error.message = error.message.replace(NOTHING_WRITTEN, &note);
    } else {
        error.message = format!("{} {note}", error.message);
    }
    error
}

/// The unified diff of one operation, with git's headers for added, deleted and moved files.
fn patch_of(o: &Outcome) -> String {
    fn version(c: &Option<(Encoding, Shared)>) -> Option<Version<'_>> {
        c.as_ref().map(|(encoding, text)| Version {
            encoding: *encoding,
            text,
            on_disk: None,
        })
    }
    let old_name = o.path.as_str();
    let new_name = o.moved_to.as_deref().unwrap_or(old_name);
    let body = file_patch(version(&o.before), version(&o.after), o.changes.as_deref(), new_name);
    let body = body
        .split_once('\n')
        .and_then(|(_, r)| r.split_once('\n'))
        .map_or("", |(_, r)| r);
    let (header, from, to) = match (o.before.is_some(), o.after.is_some(), o.moved_to.is_some()) {
        (false, true, _) => (
            format!("diff --git a/{new_name} b/{new_name}\nnew file mode 100644\n"),
            "/dev/null".to_string(),
            format!("b/{new_name}"),
        ),
        (true, false, _) => (
            format!("diff --git a/{old_name} b/{old_name}\ndeleted file mode 100644\n"),
            format!("a/{old_name}"),
            "/dev/null".to_string(),
        ),
        (_, _, true) => (
            format!("diff --git a/{old_name} b/{new_name}\nrename from {old_name}\nrename to {new_name}\n"),
            format!("a/{old_name}"),
            format!("b/{new_name}"),
        ),
        _ => (String::new(), format!("a/{old_name}"), format!("b/{new_name}")),
    };
    // git cannot rename onto an existing file: the patch deletes it first.
    let mut out = String::new();
    if o.displaced.is_some() {
        out = patch_of(&Outcome {
            path: new_name.to_string(),
            action: "delete",
            moved_to: None,
            before: o.displaced.clone(),
            after: None,
            hash_before: None,
            changes: None,
            hunks: Vec::new(),
            slot: o.slot,
            replaced: false,
            displaced: None,
        });
    }
    out.push_str(&header);
    if !body.is_empty() {
        let _ = write!(out, "--- {from}\n+++ {to}\n{body}");
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// What the engine noted about a hunk, in the format's words.
fn notes(h: &HunkOutcome, format: PatchFormat) -> Vec<String> {
    let words = match format {
        PatchFormat::SearchReplace => wording::SEARCH_REPLACE,
        _ => wording::HUNK,
    };
    let mut notes = wording::differences(&h.differences, words);
    if h.unnumbered {
        notes.insert(0, wording::line_numbers_left_out(words));
    }
    notes
}

fn hunk_report(h: &HunkOutcome, format: PatchFormat) -> HunkReport {
    HunkReport {
        index: h.index,
        tier: h.strategy.name().to_string(),
        start_line: h.new_lines.0,
        end_line: h.new_lines.1,
        old_start_line: h.old_lines.0,
        old_end_line: h.old_lines.1,
        placement: h.how.name().to_string(),
        fuzz: (format == PatchFormat::Unified).then_some(h.fuzz),
        normalized: notes(h, format),
    }
}

/// One sentence on where a hunk went.
fn hunk_sentence(h: &HunkOutcome, what: &str) -> String {
    let lines = if h.new_lines.0 == h.new_lines.1 {
        format!("line {}", h.new_lines.0)
    } else {
        format!("lines {}-{}", h.new_lines.0, h.new_lines.1)
    };
    let place = match h.how {
        How::Unique => String::new(),
        How::Anchor(a) => format!(", after its @@ line {}", a + 1),
        How::AfterPrevious => format!(", the only match after {what} {}", h.index.saturating_sub(1)),
        How::LineHint(l) => format!(", the match nearest the line number {l} in its header"),
        How::AfterAnchor(a) => format!(", added after its @@ line {}", a + 1),
        How::EndOfFile => ", at the end of the file".to_string(),
        How::StartOfFile => ", at the start of the file".to_string(),
        _ => String::new(),
    };
    let (a, b) = h.dropped;
    let fuzz = if a + b > 0 {
        let side = |n: usize, end: &str| match n {
            0 => None,
            1 => Some(format!("its {end} unchanged line")),
            n => Some(format!("its {end} {n} unchanged lines")),
        };
        let parts: Vec<String> = [side(a, "first"), side(b, "last")].into_iter().flatten().collect();
        let label = if h.fuzz > 0 {
            format!(", fuzz {}", h.fuzz)
        } else {
            String::new()
        };
        format!(
            "{label}: found only without {}, left as the file has them",
            parts.join(" and ")
        )
    } else {
        String::new()
    };
    format!(
        "  {what} {}: now at {lines} (matched {}{place}{fuzz}).",
        h.index,
        h.strategy.name()
    )
}

/// Runs a parsed call.
pub(crate) fn run(req: &PatchRequest, config: &Config) -> Result<PatchSuccess, ToolError> {
    let format = req.format.or_else(|| detect_format(&req.patch)).ok_or_else(|| {
        ToolError::invalid_input(
            "the patch is in no format surgical knows: give an apply_patch patch (`*** Begin Patch` ... `*** End \
             Patch`), SEARCH/REPLACE blocks (`<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`, the file's path on the \
             line before), or a unified diff (`--- a/path`, `+++ b/path`, `@@ ... @@` hunks).",
        )
    })?;
    let ops = parse(&req.patch, format, req.path.as_deref()).map_err(|e| parse_error(e, format))?;
    let root = Root::new(&config.root).map_err(|e| file_error(e, "."))?;
    if !req.dry_run {
        // Before the file is read: see `remove_orphans`.
        crate::journal::remove_orphans(&root);
    }
    let max = req.max_tier.unwrap_or(Options::new().get_loosest_tier());
    let rules = Rules::new(format, max);

    let mut files = Files::open(&root, &ops)?;
    let _locks = if req.dry_run { Vec::new() } else { files.lock()? };
    files.read(config.max_file_size)?;
    let outcomes = simulate(&ops, &mut files, &rules, format)?;
    // The syntax check of every file the patch changes (not one it creates or deletes), before
    // anything is written.
    let syntax: Vec<crate::syntax::Outcome> = outcomes
        .iter()
        .map(|o| match (&o.before, &o.after) {
            (Some((_, old)), Some((_, new))) => {
                let changes = match &o.changes {
                    Some(c) => c.clone(),
                    None => diff::whole_change(old, new),
                };
                crate::syntax::check(config, o.moved_to.as_deref().unwrap_or(&o.path), old, new, &changes)
            }
            _ => crate::syntax::Outcome::default(),
        })
        .collect();
    if syntax.iter().any(|s| s.refuses(config)) {
        return Err(crate::syntax::refusal(
            outcomes.iter().zip(&syntax).map(|(o, s)| (o.path.as_str(), s)),
        ));
    }
    if !req.dry_run {
        commit(&root, &mut files, config)?;
    }
    Ok(report(&outcomes, &syntax, &files, format, req.dry_run))
}

fn report(
    outcomes: &[Outcome],
    syntax: &[crate::syntax::Outcome],
    files: &Files,
    format: PatchFormat,
    dry_run: bool,
) -> PatchSuccess {
    let what = if format == PatchFormat::SearchReplace {
        "block"
    } else {
        "hunk"
    };
    let mut reports = Vec::with_capacity(outcomes.len());
    let mut summary = String::new();
    let mut diffs = String::new();
    let mut combined = String::new();
    for (index, o) in outcomes.iter().enumerate() {
        let old_text = o.before.as_ref().map_or(&[][..], |(_, t)| t.as_slice());
        let new_text = o.after.as_ref().map_or(&[][..], |(_, t)| t.as_slice());
        let changes = match &o.changes {
            Some(c) if o.before.is_some() => c.clone(),
            _ => diff::whole_change(old_text, new_text),
        };
        // A deleted file's diff would be all of it: the summary says how many lines went (the
        // patch still has them, so that `git apply` reproduces the deletion).
        let shown = if o.after.is_none() {
            diff::NumberedDiff::untold(None)
        } else {
            diff::numbered_diff(old_text, new_text, &changes)
        };
        let patch = patch_of(o);
        combined.push_str(&patch);
        let encoding = o
            .after
            .as_ref()
            .or(o.before.as_ref())
            .map_or(Encoding::Utf8, |(e, _)| *e);
        let slot = &files.slots[o.slot];
        // Hashes of the bytes on disk: known for the file as read and as written; computed for a
        // state in between (a file several operations change).
        let hash = |c: &Option<(Encoding, Shared)>| {
            c.as_ref().map(|(e, t)| match e {
                Encoding::Utf8 | Encoding::Utf8Bom => sha256_hex(&[e.bom(), t]),
                _ => sha256_hex(&[&surgical_fs::encode(*e, t).unwrap_or_else(|_| t.to_vec())]),
            })
        };
        let hash_before = o.hash_before.clone().or_else(|| hash(&o.before));
        let is_final = slot.last_op == Some(index) && o.after.is_some();
        let hash_after = if is_final {
            slot.hash_after.as_ref().map(|d| d.get().to_string())
        } else {
            hash(&o.after)
        };
        // A dry run says what would happen.
        let (applied, created, replaced, deleted) = if dry_run {
            (
                "would apply",
                "would be created",
                "would replace its content",
                "would be deleted",
            )
        } else {
            ("applied", "created", "replaced its content", "deleted")
        };
        let _ = match o.action {
            "add" if o.replaced => writeln!(
                summary,
                "A {}: {replaced} ({}).",
                o.path,
                plural(count_lines(new_text), "line")
            ),
            "add" => writeln!(
                summary,
                "A {}: {created} ({}).",
                o.path,
                plural(count_lines(new_text), "line")
            ),
            "delete" => writeln!(
                summary,
                "D {}: {deleted} ({}).",
                o.path,
                plural(count_lines(old_text), "line")
            ),
            "move" => writeln!(
                summary,
                "R {} -> {}: {} {applied}.",
                o.path,
                o.moved_to.as_deref().unwrap_or(""),
                plural(o.hunks.len(), what)
            ),
            _ => writeln!(summary, "M {}: {} {applied}.", o.path, plural(o.hunks.len(), what)),
        };
        for h in &o.hunks {
            let sentence = hunk_sentence(h, what);
            summary.push_str(&if dry_run {
                sentence.replacen(": now at ", ": would be at ", 1)
            } else {
                sentence
            });
            summary.push('\n');
            for note in notes(h, format) {
                let _ = writeln!(summary, "    {note}");
            }
        }
        for line in syntax[index].text.lines() {
            let _ = writeln!(summary, "  {line}");
        }
        let had_bom = |c: &Option<(Encoding, Shared)>| matches!(c, Some((Encoding::Utf8Bom, _)));
        if o.after.is_some() && had_bom(&o.before) != had_bom(&o.after) {
            let _ = writeln!(summary, "  {}", wording::bom_changed(had_bom(&o.after)));
        }
        if o.before.is_some() && o.after.is_some() && !shown.text.is_empty() {
            let _ = writeln!(diffs, "--- {}", o.moved_to.as_deref().unwrap_or(&o.path));
            diffs.push_str(&shown.text);
        }
        reports.push(FileReport {
            path: o.path.clone(),
            action: o.action.to_string(),
            moved_to: o.moved_to.clone(),
            diff: shown.text,
            patch,
            first_changed_line: shown.first_changed_line,
            hunks: o.hunks.iter().map(|h| hunk_report(h, format)).collect(),
            hash_before,
            hash_after,
            encoding: encoding.name().to_string(),
            undo_available: !dry_run && slot.journaled,
            patch_truncated: false,
            syntax_errors: syntax[index].errors.clone(),
            syntax_check: syntax[index].note.clone(),
        });
    }
    let count = |a: &str| outcomes.iter().filter(|o| o.action == a).count();
    let mut parts = Vec::new();
    for (action, word) in [
        ("add", "added"),
        ("update", "updated"),
        ("move", "moved"),
        ("delete", "deleted"),
    ] {
        let n = count(action);
        if n > 0 {
            parts.push(format!("{n} {word}"));
        }
    }
    let mut text = format!(
        "{} patch ({} format): {} ({}).\n",
        if dry_run {
            "Dry run, nothing written. Would apply the"
        } else {
            "Applied the"
        },
        format.name(),
        plural(outcomes.len(), "file operation"),
        parts.join(", ")
    );
    text.push_str(&summary);
    if !diffs.is_empty() {
        text.push('\n');
        crate::report::push_diff(&mut text, &diffs, "every file's diff is in `files[].diff`");
    }
    PatchSuccess {
        text,
        format: format.name().to_string(),
        files: reports,
        patch: combined,
        dry_run,
        patch_truncated: false,
    }
}
