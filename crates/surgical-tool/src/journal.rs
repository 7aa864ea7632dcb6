//! The undo journal: what each file held before the last edits made through surgical.
//!
//! It lives inside the workspace root, in `.surgical/undo/` (with a `.surgical/.gitignore` that
//! ignores everything, so it never shows up in version control). Each edit that writes a file adds
//! one entry directory, named so that names sort by time:
//!
//! ```text
//! .surgical/undo/00001764500000123456789-4242/meta.json   {"path", "hashBefore", "hashAfter", "time"}
//! .surgical/undo/00001764500000123456789-4242/before      the file's bytes before the edit
//! ```
//!
//! `path` is the file's real path relative to the root. Undo restores the newest entry for a path,
//! only if the file still has that entry's `hashAfter` (otherwise someone changed it since, and
//! restoring would throw their change away), then deletes the entry, so a second undo goes one edit
//! further back.
//!
//! Bounds: files over [`MAX_FILE_BYTES`] are not journaled (their edits cannot be undone, and the
//! result says so); the journal keeps at most [`MAX_ENTRIES`] entries and [`MAX_TOTAL_BYTES`] of
//! content, dropping the oldest first. Entries are written before the edit's rename but not fsynced:
//! they survive a killed process, not necessarily a power cut.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use surgical_fs::Root;

/// The journal's directory inside the root.
pub(crate) const JOURNAL_DIR: &str = ".surgical";
/// Files larger than this are not journaled.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;
/// At most this many entries are kept.
pub(crate) const MAX_ENTRIES: usize = 100;
/// At most this many bytes of saved content are kept.
pub(crate) const MAX_TOTAL_BYTES: u64 = 128 << 20;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Meta {
    pub path: String,
    pub hash_before: String,
    pub hash_after: String,
    pub time: u64,
}

/// One saved version.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    dir: PathBuf,
    pub meta: Meta,
}

impl Entry {
    pub(crate) fn before(&self) -> io::Result<Vec<u8>> {
        fs::read(self.dir.join("before"))
    }

    pub(crate) fn discard(&self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// An entry whose content is saved but whose metadata is not written yet.
pub(crate) struct Pending {
    dir: PathBuf,
    before: PathBuf,
    path: String,
    time: u64,
}

impl Pending {
    /// Where the old content goes (a hard link made by the write, or [`Pending::save`]).
    pub(crate) fn before_path(&self) -> &Path {
        self.before.as_path()
    }

    /// Writes the old content from memory; false if it could not be written.
    pub(crate) fn save(&self, before: &[&[u8]]) -> bool {
        let write = || -> io::Result<()> {
            let mut f = fs::File::create(&self.before)?;
            for part in before {
                f.write_all(part)?;
            }
            Ok(())
        };
        write().is_ok()
    }

    /// Drops the entry (the edit failed).
    pub(crate) fn discard(self) {
        let _ = fs::remove_dir_all(&self.dir);
    }

    /// Writes the metadata (last: an entry without it is incomplete and ignored), then prunes.
    pub(crate) fn finish(self, journal: &Journal, hash_before: &str, hash_after: &str) -> Option<Entry> {
        let meta = Meta {
            path: self.path,
            hash_before: hash_before.to_string(),
            hash_after: hash_after.to_string(),
            time: self.time,
        };
        let written = serde_json::to_vec(&meta)
            .map_err(io::Error::other)
            .and_then(|json| fs::write(self.dir.join("meta.json"), json));
        if written.is_err() {
            let _ = fs::remove_dir_all(&self.dir);
            return None;
        }
        journal.prune();
        Some(Entry { dir: self.dir, meta })
    }
}

pub(crate) struct Journal {
    root: PathBuf,
    dir: PathBuf,
}

impl Journal {
    pub(crate) fn new(root: &Root) -> Journal {
        let base = root.path().join(JOURNAL_DIR);
        Journal {
            root: root.path().to_path_buf(),
            dir: base.join("undo"),
        }
    }

    /// The key of a file: its real path relative to the root.
    pub(crate) fn key(&self, real_path: &Path) -> String {
        real_path
            .strip_prefix(&self.root)
            .unwrap_or(real_path)
            .to_string_lossy()
            .into_owned()
    }

    /// Starts an entry for `real_path` (of `len` bytes) before an edit: a directory whose `before`
    /// file the write then fills ([`Pending::before_path`], [`Pending::save`]) and whose metadata
    /// [`Pending::finish`] writes. `None` when the file is too large to journal or the journal
    /// cannot be written (the edit goes ahead; it just cannot be undone).
    pub(crate) fn prepare(&self, real_path: &Path, len: u64) -> Option<Pending> {
        if len > MAX_FILE_BYTES {
            return None;
        }
        self.ensure_dir().ok()?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let dir = self.dir.join(format!("{:023}-{}", now.as_nanos(), std::process::id()));
        fs::create_dir(&dir).ok()?;
        Some(Pending {
            before: dir.join("before"),
            dir,
            path: self.key(real_path),
            time: now.as_secs(),
        })
    }

    /// [`Journal::prepare`], [`Pending::save`] and [`Pending::finish`] in one step.
    #[cfg(test)]
    fn record(&self, real_path: &Path, before: &[&[u8]], hash_before: &str, hash_after: &str) -> Option<Entry> {
        let len = before.iter().map(|p| p.len() as u64).sum();
        let pending = self.prepare(real_path, len)?;
        if !pending.save(before) {
            pending.discard();
            return None;
        }
        pending.finish(self, hash_before, hash_after)
    }

    /// The newest complete entry for `real_path`.
    pub(crate) fn latest(&self, real_path: &Path) -> Option<Entry> {
        let key = self.key(real_path);
        self.entries().into_iter().rev().find(|e| e.meta.path == key)
    }

    fn ensure_dir(&self) -> io::Result<()> {
        if !self.dir.is_dir() {
            fs::create_dir_all(&self.dir)?;
            let ignore = self.dir.parent().expect("undo dir has a parent").join(".gitignore");
            if !ignore.exists() {
                fs::write(ignore, "# surgical's undo journal\n*\n")?;
            }
        }
        Ok(())
    }

    /// Complete entries, oldest first.
    fn entries(&self) -> Vec<Entry> {
        let Ok(list) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut dirs: Vec<PathBuf> = list.flatten().map(|e| e.path()).collect();
        dirs.sort();
        dirs.into_iter()
            .filter_map(|dir| {
                let meta: Meta = serde_json::from_slice(&fs::read(dir.join("meta.json")).ok()?).ok()?;
                Some(Entry { dir, meta })
            })
            .collect()
    }

    /// Drops the oldest entries beyond the bounds, and entries left incomplete (no metadata) by a
    /// process that died mid-edit more than ten minutes ago.
    fn prune(&self) {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        if let Ok(list) = fs::read_dir(&self.dir) {
            for dir in list.flatten().map(|e| e.path()) {
                let started = dir
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.split('-').next())
                    .and_then(|t| t.parse::<u128>().ok());
                let stale = started.is_some_and(|t| now.as_nanos().saturating_sub(t) > 600_000_000_000);
                if stale && !dir.join("meta.json").exists() {
                    let _ = fs::remove_dir_all(&dir);
                }
            }
        }
        let entries = self.entries();
        let sizes: Vec<u64> = entries
            .iter()
            .map(|e| fs::metadata(e.dir.join("before")).map_or(0, |m| m.len()))
            .collect();
        let mut total: u64 = sizes.iter().sum();
        let mut count = entries.len();
        for (entry, size) in entries.iter().zip(sizes) {
            if count <= MAX_ENTRIES && total <= MAX_TOTAL_BYTES {
                break;
            }
            entry.discard();
            count -= 1;
            total -= size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_latest_prune() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path()).unwrap();
        let j = Journal::new(&root);
        let file = root.path().join("src/a.rs");
        assert!(j.latest(&file).is_none());
        let e1 = j.record(&file, &[b"one"], "h0", "h1").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let e2 = j.record(&file, &[b"t", b"wo"], "h1", "h2").unwrap();
        // The key is the path relative to the root, with the platform's separator.
        assert_eq!(e1.meta.path, Path::new("src").join("a.rs").to_string_lossy());
        let latest = j.latest(&file).unwrap();
        assert_eq!(latest.meta, e2.meta);
        assert_eq!(latest.before().unwrap(), b"two");
        latest.discard();
        assert_eq!(j.latest(&file).unwrap().meta, e1.meta);
        assert_eq!(
            fs::read_to_string(dir.path().join(".surgical/.gitignore"))
                .unwrap()
                .lines()
                .last(),
            Some("*")
        );
        for k in 0..MAX_ENTRIES + 5 {
            j.record(&root.path().join(format!("f{k}")), &[b"x"], "a", "b").unwrap();
        }
        assert_eq!(j.entries().len(), MAX_ENTRIES);
        let too_big = vec![0u8; MAX_FILE_BYTES as usize + 1];
        assert!(j.record(&file, &[&too_big], "a", "b").is_none());
    }
}
