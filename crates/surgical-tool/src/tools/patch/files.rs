//! The files a patch touches: one [`Slot`] per real file (several names may lead to it), opened
//! ([`Files::open`]: every name resolved inside the root, the files that exist pinned), their
//! directories locked ([`Files::lock`]) and the files read ([`Files::read`]); each slot then holds
//! the file's content as the call goes on and what it is at the end.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use surgical_core::Spliced;
use surgical_fs::{DirLock, Encoding, FsErrorKind, Root, Target};
use surgical_patch::{Op, OpKind};

use super::errors::file_error;
use crate::pipeline::document::{self, Digest, Document, Shared};
use crate::wording::patch as words;
use crate::{ErrorCode, ToolError};

/// A file's text at some point of the call: whole, or a text with a patch's replacements (an
/// update's hunks placed), which is written, hashed and diffed as the old bytes and the changed
/// ranges, as an edit's. It is built whole only when something needs it so (a later operation on
/// the same file, a move, an encoding that is not UTF-8), once.
#[derive(Clone, Debug)]
pub(super) struct Body(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    base: Shared,
    spliced: Option<Arc<Spliced>>,
    whole: OnceLock<Shared>,
}

impl Body {
    /// A text held whole.
    pub(super) fn whole(text: Shared) -> Body {
        Body(Arc::new(Inner {
            base: text,
            spliced: None,
            whole: OnceLock::new(),
        }))
    }

    /// `base` with the replacements of `spliced` (on `base`).
    pub(super) fn spliced(base: Shared, spliced: Spliced) -> Body {
        if spliced.changes().is_empty() {
            return Body::whole(base);
        }
        Body(Arc::new(Inner {
            base,
            spliced: Some(Arc::new(spliced)),
            whole: OnceLock::new(),
        }))
    }

    /// The text, whole (built from the replacements the first time it is asked for).
    pub(super) fn text(&self) -> &Shared {
        match &self.0.spliced {
            None => &self.0.base,
            Some(s) => self.0.whole.get_or_init(|| Arc::new(s.text(&self.0.base))),
        }
    }

    /// The replacements on `old` that make this text, when it is held so (`old` the very buffer
    /// they were placed on).
    pub(super) fn spliced_on(&self, old: &Shared) -> Option<&Arc<Spliced>> {
        self.0.spliced.as_ref().filter(|_| Arc::ptr_eq(&self.0.base, old))
    }

    /// The text it was placed on and its replacements, when it is held so.
    pub(super) fn parts(&self) -> Option<(&Shared, &Arc<Spliced>)> {
        self.0.spliced.as_ref().map(|s| (&self.0.base, s))
    }

    /// How many lines it has ([`surgical_core::lines::count_lines`]), without building it.
    pub(super) fn count_lines(&self) -> usize {
        use surgical_core::lines::{count_lines, count_terminators, ends_open};
        let Some((base, spliced)) = self.parts() else {
            return count_lines(self.text());
        };
        // The old text's kept stretches and the replacements, in order: each one's terminators,
        // less one where a CR ending one and an LF starting the next are one CRLF.
        let pieces: Vec<&[u8]> = spliced.pieces(base).filter(|p| !p.is_empty()).collect();
        let joined = pieces
            .windows(2)
            .filter(|w| w[0].last() == Some(&b'\r') && w[1].first() == Some(&b'\n'))
            .count();
        let terminators: usize = pieces.iter().map(|p| count_terminators(p)).sum();
        terminators - joined + usize::from(pieces.last().is_some_and(|p| ends_open(p)))
    }
}

/// A file's content at some point of the call.
#[derive(Clone, Debug)]
pub(super) enum Content {
    Absent,
    Text {
        encoding: Encoding,
        text: Body,
    },
    /// Present but not text surgical can edit (binary, UTF-32, ...): it can only be deleted or
    /// replaced. The error says why.
    Opaque(String, ErrorCode),
}

/// One file the patch touches (several names may lead to it).
pub(super) struct Slot {
    /// The name the patch first used for it.
    pub(super) shown: String,
    pub(super) real: PathBuf,
    pub(super) target: Option<Target>,
    /// The file as read, if it existed.
    pub(super) before: Option<Document>,
    pub(super) now: Content,
    /// The mode a file this call creates gets (a moved file keeps its source's).
    pub(super) mode: Option<u32>,
    /// What the call leaves at its path, and its SHA-256 when something.
    pub(super) after: Final,
    pub(super) hash_after: Option<Digest>,
    /// Whether an operation changed it yet, and the last one that did.
    pub(super) touched: bool,
    pub(super) last_op: Option<usize>,
    /// Whether the undo journal holds its content before the call.
    pub(super) journaled: bool,
}

/// What a file is at the end of the call.
pub(super) enum Final {
    Absent,
    /// The bytes that were read: nothing to write.
    Unchanged,
    /// New bytes to write (UTF-16, encoded).
    Bytes(Shared),
    /// New UTF-8 text to write after a prefix (a BOM, or nothing): written and hashed as the two,
    /// never joined in memory (that was a whole copy of the file for a file with a BOM).
    Text(&'static [u8], Shared),
    /// The UTF-8 text read (after the same prefix) with replacements: written as the bytes read
    /// and the changed ranges, hashed from the old hash's checkpoint before the first change.
    Spliced(&'static [u8], Shared, Arc<Spliced>),
}

pub(super) struct Files {
    pub(super) slots: Vec<Slot>,
    pub(super) by_real: HashMap<PathBuf, usize>,
    /// Per operation: its file's slot, and the move destination's.
    pub(super) of_op: Vec<(usize, Option<usize>)>,
}

impl Files {
    /// The slot for `name`, opening the file if it exists.
    fn slot(&mut self, root: &Root, name: &str) -> Result<usize, ToolError> {
        let real = root.resolve(name).map_err(|e| file_error(e, name))?;
        crate::pipeline::files::refuse_reserved(root, &real, name).map_err(|mut e| {
            e.message = words::nothing_written(&e.message);
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

    pub(super) fn open(root: &Root, ops: &[Op]) -> Result<Files, ToolError> {
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
    pub(super) fn lock(&self) -> Result<Vec<DirLock>, ToolError> {
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

    pub(super) fn read(&mut self, limit: u64) -> Result<(), ToolError> {
        for s in &mut self.slots {
            let Some(t) = &s.target else { continue };
            let doc = Document::read(t, limit).map_err(|e| file_error(e, &s.shown))?;
            s.now = match &doc.content {
                document::Content::Text(t) => Content::Text {
                    encoding: t.encoding,
                    text: Body::whole(Arc::clone(&t.text)),
                },
                document::Content::Undecodable(e) => Content::Opaque(e.to_string(), ErrorCode::of_fs(e)),
            };
            s.mode = Some(doc.info.mode);
            s.before = Some(doc);
        }
        Ok(())
    }
}
