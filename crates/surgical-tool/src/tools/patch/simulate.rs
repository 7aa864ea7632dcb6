//! The call run in memory: every operation, in patch order, on the files' decoded text (an
//! operation sees what earlier ones did to its file), then every file's final state settled and
//! its new bytes encoded and hashed. Nothing is written here.

use std::sync::Arc;

use surgical_core::lines::{with_ending, Ending, Endings};
use surgical_core::Change;
use surgical_fs::Encoding;
use surgical_patch::{place, place_spliced, strip_bom, Hunk, HunkOutcome, Op, OpKind, PatchFormat, Rules};

use super::errors::{file_error, hunk_error, op_error};
use super::files::{Body, Content, Files, Final};
use crate::pipeline::document::{Digest, Text};
use crate::wording::patch as words;
use crate::{ErrorCode, ToolError};

/// What one operation did, for the report.
pub(super) struct Outcome {
    pub(super) path: String,
    pub(super) action: &'static str,
    pub(super) moved_to: Option<String>,
    pub(super) before: Option<(Encoding, Body)>,
    pub(super) after: Option<(Encoding, Body)>,
    /// When `before` is the file as read: its slot, whose hash (computed on another thread while
    /// the call goes on) is `before`'s. Nothing waits for it before the report.
    pub(super) hash_before: Option<usize>,
    /// The replaced ranges (hunks), or `None` for a whole-file change.
    pub(super) changes: Option<Vec<Change>>,
    pub(super) hunks: Vec<HunkOutcome>,
    /// The slot holding the result (for `undoAvailable`).
    pub(super) slot: usize,
    /// `add` over an existing file.
    pub(super) replaced: bool,
    /// A move's destination's content before it was replaced.
    pub(super) displaced: Option<(Encoding, Body)>,
}

/// Runs every operation in memory, in patch order, each seeing what earlier ones did to its file
/// ([`Files::start`], then [`add`], [`delete`] or [`Update::run`]), then settles every file's final
/// state ([`settle`]). Any failure returns here: nothing has been written.
pub(super) fn simulate(
    ops: &[Op],
    files: &mut Files,
    rules: &Rules,
    format: PatchFormat,
) -> Result<Vec<Outcome>, ToolError> {
    let mut outcomes = Vec::with_capacity(ops.len());
    for (k, op) in ops.iter().enumerate() {
        let start = files.start(k);
        let outcome = match &op.kind {
            OpKind::Add { content } => add(op, content, files, start)?,
            OpKind::Delete { hunks } => delete(op, hunks, files, start, (rules, format))?,
            OpKind::Update {
                hunks,
                move_to,
                create_if_missing,
            } => {
                let update = Update {
                    hunks,
                    move_to,
                    create_if_missing: *create_if_missing,
                };
                update.run(op, files, start, (rules, format))?
            }
        };
        outcomes.push(outcome);
    }
    settle(files)?;
    Ok(outcomes)
}

/// Where an operation starts: its file's slot (and a move's destination), the file's content at
/// this point of the call, and its slot again when that is the file as read (whose hash is then
/// `before`'s).
struct Start {
    src: usize,
    dst: Option<usize>,
    now: Content,
    current: Option<(Encoding, Body)>,
    hash_before: Option<usize>,
}

impl Files {
    /// The start of operation `k`: its slots, marked as touched by it.
    fn start(&mut self, k: usize) -> Start {
        let (src, dst) = self.of_op[k];
        let now = self.slots[src].now.clone();
        let current = match &now {
            Content::Text { encoding, text } => Some((*encoding, text.clone())),
            _ => None,
        };
        // The file as read: its hash is the one being computed since it was read (not waited for
        // here: the placement runs beside it).
        let hash_before = match (&self.slots[src].before, self.slots[src].touched) {
            (Some(_), false) => Some(src),
            _ => None,
        };
        for slot in std::iter::once(src).chain(dst) {
            self.slots[slot].touched = true;
            self.slots[slot].last_op = Some(k);
        }
        Start {
            src,
            dst,
            now,
            current,
            hash_before,
        }
    }
}

/// `*** Add File` (or a diff from `/dev/null`): the new text takes the line ending and encoding of
/// a file it replaces.
fn add(op: &Op, content: &str, files: &mut Files, start: Start) -> Result<Outcome, ToolError> {
    let Start {
        src,
        now,
        current,
        hash_before,
        ..
    } = start;
    let (encoding, eol) = match &now {
        Content::Text { encoding, text } => (*encoding, dominant_eol(text.text())),
        _ => (Encoding::Utf8, Ending::Lf),
    };
    let text = Arc::new(with_ending(content, eol).into_owned());
    if encoding == Encoding::Utf8 && text.contains(&0) {
        return Err(op_error(
            op,
            ErrorCode::InvalidInput,
            words::new_file_with_nul(&op.path),
        ));
    }
    let text = Body::whole(text);
    files.slots[src].now = Content::Text {
        encoding,
        text: text.clone(),
    };
    Ok(Outcome {
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
    })
}

/// `*** Delete File` (or a diff to `/dev/null`, whose removed lines must be all of the file).
fn delete(
    op: &Op,
    hunks: &[Hunk],
    files: &mut Files,
    start: Start,
    (rules, format): (&Rules, PatchFormat),
) -> Result<Outcome, ToolError> {
    let Start {
        src,
        now,
        current,
        hash_before,
        ..
    } = start;
    match &now {
        Content::Absent => return Err(op_error(op, ErrorCode::FileNotFound, words::delete_missing(&op.path))),
        Content::Opaque(message, code) if !hunks.is_empty() => return Err(op_error(op, *code, message.clone())),
        Content::Text { text, .. } if !hunks.is_empty() => {
            let text = text.text();
            let patched = place(text, hunks, rules).map_err(|f| hunk_error(f, text, op, format))?;
            let left = surgical_core::lines::count_terminators(&patched.text)
                + usize::from(!patched.text.is_empty() && !patched.text.ends_with(b"\n"));
            if patched.text.iter().any(|b| !b.is_ascii_whitespace()) {
                return Err(op_error(
                    op,
                    ErrorCode::NotFound,
                    words::delete_leaves_lines(&op.path, left),
                ));
            }
        }
        _ => {}
    }
    files.slots[src].now = Content::Absent;
    Ok(Outcome {
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
    })
}

/// `*** Update File` (a diff's file, SEARCH/REPLACE blocks), with `*** Move to` if any.
struct Update<'a> {
    hunks: &'a [Hunk],
    move_to: &'a Option<String>,
    create_if_missing: bool,
}

/// A file's text with an update's hunks placed: its encoding (a hunk may remove the BOM), the new
/// text (the old one with the hunks' replacements), the replaced ranges and where each hunk went.
struct Placed {
    encoding: Encoding,
    text: Body,
    changes: Vec<Change>,
    hunks: Vec<HunkOutcome>,
}

impl Update<'_> {
    /// The update's steps: what it starts from ([`Update::base`]), its hunks placed
    /// ([`Update::place`]), the result landed where it goes ([`Files::land`]).
    fn run(
        &self,
        op: &Op,
        files: &mut Files,
        start: Start,
        (rules, format): (&Rules, PatchFormat),
    ) -> Result<Outcome, ToolError> {
        let (encoding, text, existed) = self.base(op, start.now, format)?;
        let before = existed.then(|| (encoding, text.clone()));
        let placed = self.place(op, encoding, &text, (rules, format))?;
        let (action, slot, displaced) = files.land(
            (start.src, start.dst),
            existed,
            Content::Text {
                encoding: placed.encoding,
                text: placed.text.clone(),
            },
        );
        Ok(Outcome {
            hash_before: start.hash_before,
            path: op.path.clone(),
            action,
            moved_to: if action == "move" { self.move_to.clone() } else { None },
            replaced: false,
            displaced,
            before,
            after: Some((placed.encoding, placed.text)),
            changes: Some(placed.changes),
            hunks: placed.hunks,
            slot,
        })
    }

    /// The text the update applies to, and whether the file existed: an absent file only when
    /// the hunks only add lines and the format creates files that way.
    fn base(&self, op: &Op, now: Content, format: PatchFormat) -> Result<(Encoding, Body, bool), ToolError> {
        match now {
            Content::Text { encoding, text } => Ok((encoding, text, true)),
            Content::Absent if self.create_if_missing && self.hunks.iter().all(|h| h.old_lines().is_empty()) => {
                Ok((Encoding::Utf8, Body::whole(Arc::new(Vec::new())), false))
            }
            Content::Absent => Err(op_error(
                op,
                ErrorCode::FileNotFound,
                words::update_missing(&op.path, format),
            )),
            Content::Opaque(message, code) => Err(op_error(op, code, message)),
        }
    }

    /// The hunks placed on `text` and spliced (`surgical_patch::place`). A BOM the hunks write as
    /// part of the first line (as git does) is the file's BOM, which the text being patched leaves
    /// out: such hunks are placed without it, and a hunk that removes it makes the file UTF-8.
    fn place(
        &self,
        op: &Op,
        encoding: Encoding,
        body: &Body,
        (rules, format): (&Rules, PatchFormat),
    ) -> Result<Placed, ToolError> {
        // The text the hunks are placed on, whole: the new one is this buffer with their
        // replacements, never built here.
        let text = body.text();
        let hunks = self.hunks;
        let mut encoding = encoding;
        let bom = (encoding == Encoding::Utf8Bom).then(|| strip_bom(hunks));
        let (new_text, changes, placed) = match &bom {
            _ if hunks.is_empty() => (body.clone(), Vec::new(), Vec::new()),
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
                    (body.clone(), Vec::new(), bom_only.collect())
                } else {
                    let p = place_spliced(text, &kept, rules).map_err(|mut f| {
                        f.hunk = indexes[f.hunk];
                        hunk_error(f, text, op, format)
                    })?;
                    let mut outcomes = p.hunks;
                    for h in &mut outcomes {
                        h.index = indexes[h.index];
                    }
                    outcomes.extend(bom_only);
                    outcomes.sort_by_key(|h| h.index);
                    let changes = p.spliced.changes().to_vec();
                    (Body::spliced(Arc::clone(text), p.spliced), changes, outcomes)
                }
            }
            None => {
                let p = place_spliced(text, hunks, rules).map_err(|f| hunk_error(f, text, op, format))?;
                let changes = p.spliced.changes().to_vec();
                (Body::spliced(Arc::clone(text), p.spliced), changes, p.hunks)
            }
        };
        Ok(Placed {
            encoding,
            text: new_text,
            changes,
            hunks: placed,
        })
    }
}

impl Files {
    /// Puts an update's new content where it goes: at a move's destination (whose content it
    /// displaces; the source is then absent, its mode carried over), else in place. Returns the
    /// operation's action (`move`, `update`, or `add` for a file that did not exist), the slot
    /// holding the result and what it displaced.
    fn land(
        &mut self,
        (src, dst): (usize, Option<usize>),
        existed: bool,
        new: Content,
    ) -> (&'static str, usize, Option<(Encoding, Body)>) {
        match dst.filter(|&d| d != src) {
            Some(d) => {
                let displaced = match &self.slots[d].now {
                    Content::Text { encoding, text } => Some((*encoding, text.clone())),
                    _ => None,
                };
                self.slots[d].now = new;
                self.slots[d].mode = self.slots[src].mode;
                self.slots[src].now = Content::Absent;
                ("move", d, displaced)
            }
            None => {
                self.slots[src].now = new;
                (if existed { "update" } else { "add" }, src, None)
            }
        }
    }
}

/// Settles what every file is at the end of the call, and the hash of its new bytes, before
/// anything is written. A UTF-8 file whose new text is the text read with a patch's replacements
/// stays so ([`Final::Spliced`]): written as the bytes read and the changed ranges, its hash
/// resumed from the old hash's checkpoint before the first change.
fn settle(files: &mut Files) -> Result<(), ToolError> {
    for s in &mut files.slots {
        s.after = match &s.now {
            Content::Text { encoding, text } => {
                let read = s
                    .before
                    .as_ref()
                    .and_then(|b| b.text())
                    .filter(|t| t.encoding == *encoding);
                let spliced = read
                    .filter(|_| matches!(encoding, Encoding::Utf8 | Encoding::Utf8Bom))
                    .and_then(|t| Some((&t.text, text.spliced_on(&t.text)?)));
                match spliced {
                    Some((old, spliced)) => {
                        if spliced.replacements().all(|(c, bytes)| &old[c.old.clone()] == bytes) {
                            Final::Unchanged
                        } else {
                            Final::Spliced(encoding.bom(), Arc::clone(old), Arc::clone(spliced))
                        }
                    }
                    None => {
                        let text = Text {
                            encoding: *encoding,
                            text: Arc::clone(text.text()),
                        };
                        match &s.before {
                            Some(b) if b.holds(&text) => Final::Unchanged,
                            _ if matches!(text.encoding, Encoding::Utf8 | Encoding::Utf8Bom) => {
                                Final::Text(text.encoding.bom(), text.text)
                            }
                            _ => Final::Bytes(text.encoded().map_err(|e| file_error(e, &s.shown))?),
                        }
                    }
                }
            }
            // Only the file as read can be opaque.
            Content::Opaque(..) => Final::Unchanged,
            Content::Absent => Final::Absent,
        };
        s.hash_after = match (&s.after, &s.before) {
            (Final::Unchanged, Some(b)) => Some(Digest::known(b.hash.get().to_string())),
            (Final::Bytes(bytes), _) => Some(Digest::of(bytes)),
            (Final::Text(prefix, text), _) => Some(Digest::of_parts(prefix, text)),
            (Final::Spliced(prefix, old, spliced), Some(b)) => Some(b.hash.spliced(prefix, old, spliced)),
            _ => None,
        };
    }
    Ok(())
}

/// The line ending most of `text`'s lines use (ties: LF, then CRLF; LF when it has none).
fn dominant_eol(text: &[u8]) -> Ending {
    Endings::of(text).dominant().unwrap_or(Ending::Lf)
}
