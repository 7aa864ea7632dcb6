//! The document pipeline: how every tool (`read`, `edit`, `write`, `undo` and the `apply_patch`
//! transaction) reads a file and writes it back, in one place.
//!
//! Read side ([`Document::open`]): the path is resolved and opened inside the root
//! (`surgical_fs::Root::open`), the directory lock is taken when the call will write, the bytes are
//! read, decoded (`surgical_fs::decode_keeping`: the BOM set aside, UTF-16 transcoded, no copy of
//! UTF-8 content), and their SHA-256 is started on the second core ([`Digest`]) while the caller
//! goes on. A file that cannot be decoded is still a [`Document`], with the reason instead of a
//! text: some tools refuse it, the patch transaction may delete or replace it, `undo` restores it.
//!
//! Write side ([`Document::commit`]): the old version goes to the call's undo journal step (as a
//! hard link made by the write right before its rename, so it costs no copy; from memory, synced,
//! where that cannot be), the new bytes are written atomically (`surgical_fs::write_atomic_spliced`:
//! identity re-check, rename; an edit hands over the old bytes and its replacements, so the new
//! version is never assembled in memory and the unchanged ranges are copied inside the kernel where
//! the system can), and the step records both hashes.
//!
//! What a patch shows of a version of a file ([`file_patch`], [`Version`]): the rule is per
//! version. UTF-8 shows its bytes on disk, which for UTF-8 with a BOM means the BOM too, so
//! `git apply` works on the file itself; UTF-16 shows its text, since a patch is UTF-8 text and
//! the UTF-16 bytes could not stand in it. The change ranges the engine reports are over the text,
//! so they are shifted by the BOM when both versions show one, and recomputed otherwise.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::{Condvar, Mutex};

use sha2::{Digest as _, Sha256};
use surgical_core::{diff, Change, Spliced};
use surgical_fs::{Decoding, DirLock, Encoding, FileInfo, FsError, Piece, Root, Target};

use crate::pipeline::journal::Step;

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

/// Content shared between the stages and reports that hold it (files may be large).
pub(crate) type Shared = Arc<Vec<u8>>;

/// Inputs at least this long are hashed on another thread; for shorter ones starting a thread
/// costs more than the hash.
const HASH_ON_THREAD: usize = 16 << 10;

/// The hasher's state is kept every this many bytes of the input (at 0, `CHECKPOINT`, ...), so the
/// hash of a version that shares a prefix with it resumes after that prefix instead of hashing it
/// again ([`Digest::spliced`]).
const CHECKPOINT: usize = 1 << 20;

/// A SHA-256 (lowercase hex), computed on the second core while the call goes on; [`Digest::get`]
/// waits for it.
pub(crate) struct Digest {
    value: OnceCell<String>,
    /// The hasher's state at every multiple of [`CHECKPOINT`] bytes (empty for a hash known already).
    checkpoints: OnceCell<Arc<Vec<Sha256>>>,
    /// Where the hashing thread leaves its progress (`None` for a hash known already).
    pending: Option<Pending>,
}

/// What a hashing thread has done so far: the hasher's state at each checkpoint it passed, as it
/// passes it (so the hash of a new version can resume from one while this hash goes on), and the
/// hash once done.
#[derive(Default)]
struct Progress {
    checkpoints: Vec<Sha256>,
    done: Option<String>,
}

/// A hash being computed on another thread, for every thread that waits on it.
type Pending = Arc<(Mutex<Progress>, Condvar)>;

/// Waits until `pending` is done: the hash and every checkpoint.
fn wait(pending: &Pending) -> (String, Arc<Vec<Sha256>>) {
    let (slot, ready) = &**pending;
    let mut progress = slot.lock().expect("hashing does not panic");
    loop {
        if let Some(done) = progress.done.as_ref() {
            return (done.clone(), Arc::new(progress.checkpoints.clone()));
        }
        progress = ready.wait(progress).expect("hashing does not panic");
    }
}

/// The state to resume from for a version that is the same as the hashed one for its first `same`
/// bytes (of `total`), and how many bytes that state holds: the checkpoint at or before `same`
/// (the last one there is, if the hash has fewer), or the initial state.
fn resume_point(checkpoints: &[Sha256], same: usize) -> (Sha256, usize) {
    let at = (same / CHECKPOINT).min(checkpoints.len().saturating_sub(1));
    checkpoints
        .get(at)
        .map_or_else(|| (Sha256::new(), 0), |state| (state.clone(), at * CHECKPOINT))
}

/// [`resume_point`] from a hash still being computed over `total` bytes: waits only until it has
/// passed the checkpoint wanted (or is done), not for its end.
fn wait_for_checkpoint(pending: &Pending, same: usize, total: usize) -> (Sha256, usize) {
    let wanted = (same / CHECKPOINT).min(total.div_ceil(CHECKPOINT).saturating_sub(1));
    let (slot, ready) = &**pending;
    let mut progress = slot.lock().expect("hashing does not panic");
    loop {
        if progress.checkpoints.len() > wanted || progress.done.is_some() {
            return resume_point(&progress.checkpoints, same);
        }
        progress = ready.wait(progress).expect("hashing does not panic");
    }
}

/// The hash of `parts` concatenated, continuing `from` (a state after `skip` bytes of them); the
/// state at every later multiple of [`CHECKPOINT`] is handed to `checkpoint` as it is reached.
fn hash_from(from: Sha256, skip: usize, parts: &[&[u8]], checkpoint: &mut dyn FnMut(&Sha256)) -> String {
    let mut hasher = from;
    let mut offset = 0;
    for part in parts {
        let mut rest = *part;
        // Skip what the state already holds.
        let skipped = skip.saturating_sub(offset).min(rest.len());
        offset += skipped;
        rest = &rest[skipped..];
        while !rest.is_empty() {
            if offset.is_multiple_of(CHECKPOINT) {
                checkpoint(&hasher);
            }
            let take = (CHECKPOINT - offset % CHECKPOINT).min(rest.len());
            hasher.update(&rest[..take]);
            offset += take;
            rest = &rest[take..];
        }
    }
    hex(hasher.finalize().as_slice())
}

fn hex(digest: &[u8]) -> String {
    let mut s = String::with_capacity(64);
    for b in digest {
        let _ = write!(s, "{b:02x}");
    }
    s
}

impl Digest {
    /// The hash of `bytes`.
    pub(crate) fn of(bytes: &Shared) -> Digest {
        Digest::of_parts(b"", bytes)
    }

    /// The hash of `prefix` followed by `bytes` (a BOM and the text after it).
    pub(crate) fn of_parts(prefix: &'static [u8], bytes: &Shared) -> Digest {
        if bytes.len() < HASH_ON_THREAD {
            return Digest::known(sha256_hex(&[prefix, bytes]));
        }
        let bytes = Arc::clone(bytes);
        Digest::on_thread(move |checkpoint| hash_from(Sha256::new(), 0, &[prefix, &bytes], checkpoint))
    }

    /// The hash of `prefix` followed by the new text of `new`: `old` (the text `self` hashed after
    /// the same `prefix`) with `new`'s replacements, on the other core. Hashing resumes from `self`'s
    /// last checkpoint before the first change (the bytes up to there are the same); when `self` is
    /// not done yet, its thread hands over each checkpoint as it passes it, so this hash starts as soon
    /// as the one it needs is there and runs beside the rest of `self` (a change in the middle of a
    /// large file no longer waits for the whole old hash). Nothing waits here, and the shared prefix
    /// is hashed once.
    pub(crate) fn spliced(&self, prefix: &'static [u8], old: &Shared, new: &Arc<Spliced>) -> Digest {
        let same = prefix.len() + new.changes().first().map_or(old.len(), |c| c.old.start);
        let total = prefix.len() + old.len();
        // The checkpoint to resume from: at once when the old hash is done; otherwise the thread
        // waits for the old hash to pass it, unless the old hash was known without checkpoints.
        let checkpoints = match (self.is_ready(), &self.pending) {
            (true, _) => {
                self.get();
                Some(Arc::clone(self.checkpoints.get().expect("set with the value")))
            }
            (false, Some(_)) => None,
            (false, None) => Some(Arc::new(Vec::new())),
        };
        let pending = self.pending.clone();
        let small = new.new_len() < HASH_ON_THREAD;
        let (old, new) = (Arc::clone(old), Arc::clone(new));
        let job = move |checkpoint: &mut dyn FnMut(&Sha256)| {
            let (state, resume) = match &checkpoints {
                Some(checkpoints) => resume_point(checkpoints, same),
                None => wait_for_checkpoint(pending.as_ref().expect("a pending hash"), same, total),
            };
            // The new version's parts: the prefix, then the old text's unchanged stretches between the
            // replacements.
            let parts: Vec<&[u8]> = std::iter::once(prefix).chain(new.pieces(&old)).collect();
            hash_from(state, resume, &parts, checkpoint)
        };
        if small {
            return Digest::known(job(&mut |_| {}));
        }
        Digest::on_thread(job)
    }

    fn on_thread(job: impl FnOnce(&mut dyn FnMut(&Sha256)) -> String + Send + 'static) -> Digest {
        let pending: Pending = Arc::new((Mutex::new(Progress::default()), Condvar::new()));
        let slot = Arc::clone(&pending);
        std::thread::spawn(move || {
            let began = std::time::Instant::now();
            let (progress, ready) = &*slot;
            let value = job(&mut |state| {
                progress
                    .lock()
                    .expect("hashing does not panic")
                    .checkpoints
                    .push(state.clone());
                ready.notify_all();
            });
            crate::pipeline::timings::took("hash", began);
            progress.lock().expect("hashing does not panic").done = Some(value);
            ready.notify_all();
        });
        Digest {
            value: OnceCell::new(),
            checkpoints: OnceCell::new(),
            pending: Some(pending),
        }
    }

    /// A hash known already.
    pub(crate) fn known(value: String) -> Digest {
        Digest {
            value: OnceCell::from(value),
            checkpoints: OnceCell::from(Arc::new(Vec::new())),
            pending: None,
        }
    }

    /// Whether [`Digest::get`] would return at once (the hash is known or its thread is done).
    pub(crate) fn is_ready(&self) -> bool {
        self.value.get().is_some()
            || self
                .pending
                .as_ref()
                .is_none_or(|p| p.0.lock().expect("hashing does not panic").done.is_some())
    }

    pub(crate) fn get(&self) -> &str {
        self.value.get_or_init(|| {
            let (value, checkpoints) = self.pending.as_ref().map(wait).unwrap_or_default();
            let _ = self.checkpoints.set(checkpoints);
            value
        })
    }
}

/// A file's text in memory and the encoding it is written in (see `surgical_fs::Decoded`).
#[derive(Clone, Debug)]
pub(crate) struct Text {
    pub encoding: Encoding,
    pub text: Shared,
}

impl Text {
    /// The bytes this text is written as. Plain UTF-8 is its own encoding: the buffer is shared,
    /// not copied.
    pub(crate) fn encoded(&self) -> Result<Shared, FsError> {
        match self.encoding {
            Encoding::Utf8 => Ok(Arc::clone(&self.text)),
            other => Ok(Arc::new(surgical_fs::encode(other, &self.text)?)),
        }
    }

    /// This text as a version of the file a patch shows; `on_disk` is its encoded bytes when the
    /// caller has them (it saves building them again).
    pub(crate) fn version<'a>(&'a self, on_disk: Option<&'a [u8]>) -> Version<'a> {
        Version {
            encoding: self.encoding,
            text: &self.text,
            on_disk,
        }
    }
}

/// What a file read by the pipeline holds.
pub(crate) enum Content {
    Text(Text),
    /// Bytes surgical cannot decode (binary, UTF-32, malformed UTF-16): why, naming the path.
    Undecodable(FsError),
}

/// A file as read by the pipeline: where it is, its hash, and its text.
pub(crate) struct Document {
    /// What the atomic write (and the identity re-check) needs.
    pub info: FileInfo,
    /// The SHA-256 of the bytes on disk.
    pub hash: Digest,
    pub content: Content,
    /// The bytes as read, kept where they are not the text itself (UTF-16, undecodable).
    raw: Option<Shared>,
}

impl Document {
    /// Opens `shown` inside `root`, takes the directory lock when `lock` (a call that will write
    /// holds it from before the read until its new content is in place, so another surgical
    /// process editing in the directory waits instead of losing this update or having its own
    /// lost), and reads the file ([`Document::read`]).
    pub(crate) fn open(
        root: &Root,
        shown: &str,
        lock: bool,
        limit: u64,
    ) -> Result<(Option<DirLock>, Document), FsError> {
        Document::open_target(&root.open(shown)?, lock, limit)
    }

    /// [`Document::open`] for a target opened already.
    pub(crate) fn open_target(target: &Target, lock: bool, limit: u64) -> Result<(Option<DirLock>, Document), FsError> {
        let lock = if lock { Some(target.lock()?) } else { None };
        crate::pipeline::timings::mark("open and lock");
        Ok((lock, Document::read(target, limit)?))
    }

    /// Reads the file (at most `limit` bytes), decodes it, and starts its hash. The caller holds
    /// the directory lock if it will write.
    pub(crate) fn read(target: &Target, limit: u64) -> Result<Document, FsError> {
        // Read and decoded in one pass: the NUL that tells a binary file is looked for as it is read.
        let (info, decoding) = target.read_decoding(limit)?;
        crate::pipeline::timings::mark("read");
        let (content, raw) = match decoding {
            Decoding::Text(d) => (text(d), None),
            Decoding::Transcoded(d, bytes) => (text(d), Some(Arc::new(bytes))),
            Decoding::Refused(e, bytes) => (
                Content::Undecodable(e.with_path(&target.requested)),
                Some(Arc::new(bytes)),
            ),
        };
        let hash = match (&raw, &content) {
            (Some(raw), _) => Digest::of(raw),
            (None, Content::Text(t)) => Digest::of_parts(t.encoding.bom(), &t.text),
            (None, Content::Undecodable(_)) => unreachable!("undecodable bytes are kept"),
        };
        crate::pipeline::timings::mark("decode");
        Ok(Document {
            info,
            hash,
            content,
            raw,
        })
    }

    /// The text, when the file decodes.
    pub(crate) fn text(&self) -> Option<&Text> {
        match &self.content {
            Content::Text(t) => Some(t),
            Content::Undecodable(_) => None,
        }
    }

    /// The bytes on disk, in two parts: the BOM set aside by decoding (or nothing) and the rest.
    pub(crate) fn parts(&self) -> [&[u8]; 2] {
        match (&self.raw, &self.content) {
            (Some(raw), _) => [&[], raw.as_slice()],
            (None, Content::Text(t)) => [t.encoding.bom(), t.text.as_slice()],
            (None, Content::Undecodable(_)) => unreachable!("undecodable bytes are kept"),
        }
    }

    /// The bytes on disk in one piece (a copy only for UTF-8 with a BOM).
    pub(crate) fn bytes(&self) -> Cow<'_, [u8]> {
        match self.parts() {
            [[], rest] => Cow::Borrowed(rest),
            [bom, rest] => Cow::Owned([bom, rest].concat()),
        }
    }

    /// Whether `new` is written as exactly the bytes that were read. (Text and encoding decide
    /// it: encoding is exact both ways.)
    pub(crate) fn holds(&self, new: &Text) -> bool {
        self.text()
            .is_some_and(|t| t.encoding == new.encoding && (Arc::ptr_eq(&t.text, &new.text) || t.text == new.text))
    }

    /// Replaces the file with `bytes` (whose hash `hash_after` is being computed), keeping the
    /// version it replaces in the journal `step`. Returns whether the step holds it: not without a
    /// step, nor for files too large to journal, nor when the journal cannot be written (the write
    /// goes ahead; the step is then not kept). A file the caller may not write is refused with
    /// `permission_denied` (`FileInfo::check_writable`). On an error nothing was written and the step
    /// holds nothing of this file.
    pub(crate) fn commit(&self, bytes: &[u8], hash_after: &Digest, step: Option<&mut Step>) -> Result<bool, FsError> {
        self.commit_spliced(&[Piece::New(bytes)], hash_after, step)
    }

    /// [`Document::commit`] of a new version made of `pieces`: ranges of the bytes read (offsets
    /// on disk, a BOM included) and new bytes, so the new version is never assembled in memory
    /// (see `surgical_fs::write_atomic_spliced`).
    pub(crate) fn commit_spliced(
        &self,
        pieces: &[Piece<'_>],
        hash_after: &Digest,
        step: Option<&mut Step>,
    ) -> Result<bool, FsError> {
        // A read-only file (or one of another user) is refused, not replaced through the rename.
        self.info.check_writable()?;
        let Some(step) = step else {
            surgical_fs::write_atomic_spliced(&self.info, &self.parts(), pieces, None)?;
            return Ok(false);
        };
        // The old hash is recorded after the write: nothing before the rename waits for it (the
        // other core finishes it while the new version is written).
        let index = step.add_existing(&self.info.real_path, self.info.len, Some(self.info.mode));
        crate::pipeline::timings::mark("journal step");
        let keep_at = index.map(|i| step.content_path(i));
        let kept = match surgical_fs::write_atomic_spliced(&self.info, &self.parts(), pieces, keep_at.as_deref()) {
            Ok(kept) => kept,
            Err(e) => {
                if index.is_some() {
                    step.drop_last();
                }
                return Err(e);
            }
        };
        crate::pipeline::timings::mark("atomic write");
        let Some(index) = index else {
            return Ok(false);
        };
        // Not kept by a link (a file rewritten in place, a journal on another file system): the
        // old bytes are still in memory.
        let saved = kept || step.save(index, &self.parts());
        step.set_before(index, self.hash.get());
        step.set_after(index, Some(hash_after.get()));
        crate::pipeline::timings::mark("journal step (hashes awaited)");
        Ok(saved)
    }
}

fn text(d: surgical_fs::Decoded) -> Content {
    Content::Text(Text {
        encoding: d.encoding,
        text: Arc::new(d.text),
    })
}

/// One version of a file, as a patch shows it (see the module documentation for the rule).
#[derive(Clone, Copy)]
pub(crate) struct Version<'a> {
    pub encoding: Encoding,
    /// The decoded text.
    pub text: &'a [u8],
    /// The encoded bytes, when the caller has them.
    pub on_disk: Option<&'a [u8]>,
}

impl<'a> Version<'a> {
    /// The bytes a patch shows of this version, and where its text starts in them.
    pub(crate) fn shown(self) -> (Cow<'a, [u8]>, usize) {
        match (self.encoding, self.on_disk) {
            (Encoding::Utf8Bom, Some(bytes)) => (Cow::Borrowed(bytes), self.encoding.bom().len()),
            (Encoding::Utf8Bom, None) => (
                Cow::Owned([self.encoding.bom(), self.text].concat()),
                self.encoding.bom().len(),
            ),
            (Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be, _) => (Cow::Borrowed(self.text), 0),
        }
    }
}

/// The unified patch (headers `--- a/{name}` and `+++ b/{name}`) from `old` to `new` (`None`: the
/// file does not exist), over the bytes each version shows. `changes` are the replaced ranges of
/// the text, when known (else the whole changed range is found).
pub(crate) fn file_patch(
    old: Option<Version<'_>>,
    new: Option<Version<'_>>,
    changes: Option<&[Change]>,
    name: &str,
) -> String {
    // Known changes between two versions with the same prefix (a BOM, or none): the patch window
    // by window, the same as over the whole shown bytes, without joining or passing over them.
    if let (Some(changes), Some(old), Some(new)) = (changes, old, new) {
        let prefix = |v: &Version<'_>| match v.encoding {
            Encoding::Utf8Bom => v.encoding.bom(),
            Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be => &[][..],
        };
        if prefix(&old) == prefix(&new) {
            let windows = diff::Windows::new(
                old.text,
                changes.iter().map(|c| (c.old.clone(), &new.text[c.new.clone()])),
            );
            return windows.unified_patch(prefix(&old), name);
        }
    }
    let (old_shown, old_start) = old.map_or((Cow::Borrowed(&[][..]), 0), Version::shown);
    let (new_shown, new_start) = new.map_or((Cow::Borrowed(&[][..]), 0), Version::shown);
    let changes = match changes {
        Some(c) if old.is_some() && old_start == new_start => c
            .iter()
            .map(|c| {
                Change::new(
                    c.old.start + old_start..c.old.end + old_start,
                    c.new.start + new_start..c.new.end + new_start,
                )
            })
            .collect(),
        _ => diff::whole_change(&old_shown, &new_shown),
    };
    diff::unified_patch(&old_shown, &new_shown, &changes, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(encoding: Encoding, text: &[u8]) -> Version<'_> {
        Version {
            encoding,
            text,
            on_disk: None,
        }
    }

    #[test]
    fn a_patch_shows_utf8_bytes_and_utf16_text() {
        let shown = |e: Encoding, t: &'static [u8]| version(e, t).shown();
        assert_eq!(shown(Encoding::Utf8, b"a\n"), (Cow::Borrowed(&b"a\n"[..]), 0));
        assert_eq!(shown(Encoding::Utf8Bom, b"a\n").0.as_ref(), b"\xEF\xBB\xBFa\n");
        assert_eq!(shown(Encoding::Utf8Bom, b"a\n").1, 3);
        assert_eq!(shown(Encoding::Utf16Le, b"a\n"), (Cow::Borrowed(&b"a\n"[..]), 0));
        // Bytes on disk given are used as they are.
        let on_disk = b"\xEF\xBB\xBFa\n";
        let v = Version {
            on_disk: Some(on_disk),
            ..version(Encoding::Utf8Bom, b"a\n")
        };
        assert!(matches!(v.shown().0, Cow::Borrowed(_)));
    }

    #[test]
    fn changes_are_shifted_past_a_bom_on_both_sides_and_recomputed_otherwise() {
        let old = version(Encoding::Utf8Bom, b"one\ntwo\n");
        let new = version(Encoding::Utf8Bom, b"one\n2\n");
        let changes = [Change::new(4..7, 4..5)];
        let with = file_patch(Some(old), Some(new), Some(&changes), "f");
        let without = file_patch(Some(old), Some(new), None, "f");
        assert_eq!(with, without);
        assert!(with.contains("-two\n+2\n"), "{with}");
        // Without a BOM, and UTF-16 (its decoded text shown), the same.
        for e in [Encoding::Utf8, Encoding::Utf16Le] {
            let (old, new) = (version(e, b"one\ntwo\n"), version(e, b"one\n2\n"));
            let changes = [Change::new(4..7, 4..5)];
            assert_eq!(
                file_patch(Some(old), Some(new), Some(&changes), "f"),
                file_patch(Some(old), Some(new), None, "f")
            );
        }
        // A BOM added: the ranges of the text do not apply to the bytes; the patch shows the BOM.
        let plain = version(Encoding::Utf8, b"one\ntwo\n");
        let patch = file_patch(Some(plain), Some(new), Some(&changes), "f");
        assert!(patch.contains("-one\n-two\n+\u{feff}one\n+2\n"), "{patch}");
    }

    #[test]
    fn a_hash_resumed_from_a_checkpoint_is_the_hash_of_the_new_version() {
        use surgical_core::{apply_spliced, Edit, Options};
        let mut text = String::new();
        let mut i = 0;
        while text.len() < 3 * CHECKPOINT + 100 {
            let _ = writeln!(text, "line {i}");
            i += 1;
        }
        let old: Shared = Arc::new(text.into_bytes());
        let bom: &'static [u8] = b"\xEF\xBB\xBF";
        for prefix in [bom, b""] {
            let before = Digest::of_parts(prefix, &old);
            for k in [0, 1, 3, i / 3, i / 3 + 1, 2 * i / 3, i - 1] {
                let edits = [Edit::new(format!("\nline {k}\n"), format!("\nchanged {k}\n"))];
                let edits = if k == 0 {
                    [Edit::new("line 0\n", "first\n")]
                } else {
                    edits
                };
                let new = Arc::new(apply_spliced(&old, &edits, &Options::new()).unwrap());
                let whole = [prefix, &new.text(&old)].concat();
                for ready in [false, true] {
                    if ready {
                        before.get();
                    }
                    let after = before.spliced(prefix, &old, &new);
                    assert_eq!(after.get(), sha256_hex(&[&whole]), "{k} {ready}");
                }
            }
        }
        // A small version is hashed at once.
        let small: Shared = Arc::new(b"tiny\n".to_vec());
        let new = Arc::new(apply_spliced(&small, &[Edit::new("tiny", "tin")], &Options::new()).unwrap());
        assert_eq!(
            Digest::of(&small).spliced(b"", &small, &new).get(),
            sha256_hex(&[b"tin\n"])
        );
    }

    #[test]
    fn a_resumed_hash_waits_for_its_checkpoint_not_for_the_end_of_the_old_hash() {
        let pending: Pending = Arc::new((Mutex::new(Progress::default()), Condvar::new()));
        let mut states = Vec::new();
        let mut hasher = Sha256::new();
        for k in 0..3u8 {
            states.push(hasher.clone());
            hasher.update(vec![k; CHECKPOINT]);
        }
        pending.0.lock().unwrap().checkpoints = states[..2].to_vec();
        // Not done, but past the checkpoint wanted: no wait (a wait here would never end).
        let (state, resume) = wait_for_checkpoint(&pending, CHECKPOINT + 5, 10 * CHECKPOINT);
        assert_eq!((state.finalize(), resume), (states[1].clone().finalize(), CHECKPOINT));
        // The checkpoint wanted is clamped to the last one a text of that length has.
        let (_, resume) = wait_for_checkpoint(&pending, 9 * CHECKPOINT, 2 * CHECKPOINT);
        assert_eq!(resume, CHECKPOINT);
        // Once done, whatever it has.
        pending.0.lock().unwrap().done = Some(String::new());
        let (_, resume) = wait_for_checkpoint(&pending, 7 * CHECKPOINT, 10 * CHECKPOINT);
        assert_eq!(resume, CHECKPOINT);
    }

    #[test]
    fn a_document_hashes_the_bytes_on_disk_and_keeps_what_it_cannot_decode() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path()).unwrap();
        let big = "x\n".repeat(HASH_ON_THREAD);
        let files: [(&str, Vec<u8>); 5] = [
            ("plain", b"a\r\nb".to_vec()),
            ("bom", b"\xEF\xBB\xBFa\n".to_vec()),
            ("utf16", b"\xFF\xFEa\x00\n\x00".to_vec()),
            ("binary", b"a\x00b".to_vec()),
            ("big", [&b"\xEF\xBB\xBF"[..], big.as_bytes()].concat()),
        ];
        for (name, bytes) in &files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
            let (lock, doc) = Document::open(&root, name, true, u64::MAX).unwrap();
            assert!(lock.is_some());
            assert_eq!(doc.hash.get(), sha256_hex(&[bytes]), "{name}");
            assert_eq!(doc.bytes().as_ref(), bytes.as_slice(), "{name}");
            match (&doc.content, *name) {
                (Content::Undecodable(e), "binary") => {
                    assert_eq!(e.code(), "binary_file");
                    assert!(e.to_string().starts_with("binary looks binary"), "{e}");
                }
                (Content::Text(t), _) => assert_eq!(t.encoded().unwrap().as_slice(), bytes.as_slice(), "{name}"),
                (Content::Undecodable(e), _) => panic!("{name}: {e}"),
            }
        }
        // The plain UTF-8 text is the bytes read, not a copy of them.
        let (_, doc) = Document::open(&root, "plain", false, u64::MAX).unwrap();
        let text = doc.text().unwrap();
        assert!(Arc::ptr_eq(&text.text, &text.encoded().unwrap()));
        assert!(doc.holds(&text.clone()));
    }
}
