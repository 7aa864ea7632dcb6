//! The undo journal: what the files held before each change made through surgical, one step per
//! tool call.
//!
//! It lives inside the workspace root, in `.surgical/undo/` (with a `.surgical/.gitignore` that
//! ignores everything, so it never shows up in version control). The one exception: when the root
//! is the home directory or the filesystem root, no `.surgical` is made there (it would clutter the
//! one directory every user and every program sees); the journal goes to
//! `~/.local/state/surgical/<root>/undo/` instead (`%LOCALAPPDATA%\surgical\...` on Windows), which
//! is still inside that root. See [`journal_dir`].
//!
//! Each call that writes adds one entry directory, named so that names sort by time:
//!
//! ```text
//! .surgical/undo/00001764500000123456789-4242/meta.json  {"tool", "time", "files": [{"path", "hashBefore", "hashAfter", "mode"}]}
//! .surgical/undo/00001764500000123456789-4242/before     the first file's bytes before the call
//! .surgical/undo/00001764500000123456789-4242/before-1   the second file's, ...
//! ```
//!
//! `path` is a file's real path relative to the root; `hashBefore` is null for a file the call
//! created, `hashAfter` null for a file it deleted. Undo takes the newest entry naming a path and
//! puts back every file of it (a patch is undone whole), only if each still is what the call left
//! (its `hashAfter`, or absent); otherwise nothing is touched (`stale`). Then the entry is deleted,
//! so a second undo goes one step further back.
//!
//! Bounds: a call that changes a file over [`MAX_FILE_BYTES`] is not journaled (it cannot be undone,
//! and the result says so); the journal keeps at most [`MAX_ENTRIES`] entries and
//! [`MAX_TOTAL_BYTES`] of content, dropping the oldest first. Durability: saved content is fsynced
//! before the file it protects is replaced or deleted (a hard link needs none: it is the old file
//! itself); the metadata, the entry's directory and the journal's directory are fsynced when the
//! entry is completed, right after the call's writes.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use surgical_fs::Root;

/// The journal's directory inside the root (and the name every tool refuses to touch).
pub(crate) const JOURNAL_DIR: &str = ".surgical";
/// Files larger than this are not journaled.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;
/// At most this many entries are kept.
pub(crate) const MAX_ENTRIES: usize = 100;
/// At most this many bytes of saved content are kept.
pub(crate) const MAX_TOTAL_BYTES: u64 = 128 << 20;

/// One file of a step.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FileMeta {
    pub path: String,
    /// Null: the call created the file.
    pub hash_before: Option<String>,
    /// Null: the call deleted the file.
    pub hash_after: Option<String>,
    /// The permission bits of a deleted file, to recreate it with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Meta {
    /// The tool that made the change (`edit`, `write`, `apply_patch`).
    #[serde(default)]
    pub tool: String,
    pub time: u64,
    #[serde(default)]
    pub files: Vec<FileMeta>,
    // The one-file form of earlier versions, read into `files`.
    #[serde(default, skip_serializing)]
    path: Option<String>,
    #[serde(default, skip_serializing)]
    hash_before: Option<String>,
    #[serde(default, skip_serializing)]
    hash_after: Option<String>,
}

/// One saved step.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    dir: PathBuf,
    pub meta: Meta,
}

/// Where file `index` of an entry keeps its content before the call.
fn content_name(index: usize) -> String {
    if index == 0 {
        "before".to_string()
    } else {
        format!("before-{index}")
    }
}

impl Entry {
    /// The content of file `index` before the call.
    pub(crate) fn before(&self, index: usize) -> io::Result<Vec<u8>> {
        fs::read(self.dir.join(content_name(index)))
    }

    pub(crate) fn discard(&self) {
        let _ = fs::remove_dir_all(&self.dir);
        if let Some(parent) = self.dir.parent() {
            surgical_fs::sync_dir(parent);
        }
    }
}

/// The hash before of a file added by [`Step::add_existing`] until [`Step::set_before`] sets it.
const UNSET: &str = "";

/// A step being recorded: its directory exists, its files' content is saved as the call writes,
/// and its metadata is written last by [`Step::finish`] (an entry without it is incomplete and
/// ignored).
pub(crate) struct Step {
    dir: PathBuf,
    root: PathBuf,
    tool: &'static str,
    time: u64,
    files: Vec<FileMeta>,
    /// A file could not be saved (too large, or the journal could not be written): the step cannot
    /// be undone as a whole, so it is not kept.
    broken: bool,
}

impl Step {
    /// Adds `real_path` to the step: `hash_before` is `None` for a file the call creates; `len` and
    /// `mode` are those of the existing file. Returns the file's index, or `None` when its content
    /// cannot be kept (too large): the step is then dropped at [`Step::finish`].
    pub(crate) fn add(
        &mut self,
        real_path: &Path,
        hash_before: Option<&str>,
        len: u64,
        mode: Option<u32>,
    ) -> Option<usize> {
        if hash_before.is_some() && len > MAX_FILE_BYTES {
            self.broken = true;
            return None;
        }
        self.files.push(FileMeta {
            path: key(&self.root, real_path),
            hash_before: hash_before.map(str::to_string),
            hash_after: None,
            mode,
        });
        Some(self.files.len() - 1)
    }

    /// [`Step::add`] for a file that exists, whose hash before is not known yet (it is being
    /// computed while the file is written): [`Step::set_before`] sets it. A step whose hash before was
    /// never set is not kept ([`Step::finish`]).
    pub(crate) fn add_existing(&mut self, real_path: &Path, len: u64, mode: Option<u32>) -> Option<usize> {
        self.add(real_path, Some(UNSET), len, mode)
    }

    /// Sets file `index`'s hash before (see [`Step::add_existing`]).
    pub(crate) fn set_before(&mut self, index: usize, hash_before: &str) {
        self.files[index].hash_before = Some(hash_before.to_string());
    }

    /// Where file `index`'s old content goes (a hard link made by the write, or [`Step::save`]).
    pub(crate) fn content_path(&self, index: usize) -> PathBuf {
        self.dir.join(content_name(index))
    }

    /// Writes file `index`'s old content from memory, and syncs it; false (and the step broken) if
    /// it could not be written.
    pub(crate) fn save(&mut self, index: usize, before: &[&[u8]]) -> bool {
        let write = || -> io::Result<()> {
            let mut f = fs::File::create(self.content_path(index))?;
            for part in before {
                f.write_all(part)?;
            }
            f.sync_all()
        };
        let saved = write().is_ok();
        self.broken |= !saved;
        saved
    }

    /// What the call left at file `index`: its hash, or `None` when it deleted it.
    pub(crate) fn set_after(&mut self, index: usize, hash_after: Option<&str>) {
        self.files[index].hash_after = hash_after.map(str::to_string);
    }

    /// Drops the last file added (its write failed), with its saved content.
    pub(crate) fn drop_last(&mut self) {
        if self.files.pop().is_some() {
            let _ = fs::remove_file(self.content_path(self.files.len()));
        }
    }

    /// Drops the whole step (the call failed, or it was not recorded whole).
    pub(crate) fn discard(self) {
        let _ = fs::remove_dir_all(&self.dir);
    }

    /// Writes the metadata and syncs the entry, then prunes the journal. Returns whether the step
    /// can be undone: not when a file of it could not be saved, nor when it holds no file.
    pub(crate) fn finish(self, journal: &Journal) -> bool {
        // A hash before never set: the step could not tell what to restore over.
        let unset = self.files.iter().any(|f| f.hash_before.as_deref() == Some(UNSET));
        debug_assert!(!unset, "a journal step's hash before was never set");
        if self.broken || unset || self.files.is_empty() {
            self.discard();
            return false;
        }
        let meta = Meta {
            tool: self.tool.to_string(),
            time: self.time,
            files: self.files.clone(),
            path: None,
            hash_before: None,
            hash_after: None,
        };
        let write = || -> io::Result<()> {
            let json = serde_json::to_vec(&meta).map_err(io::Error::other)?;
            let mut f = fs::File::create(self.dir.join("meta.json"))?;
            f.write_all(&json)?;
            f.sync_all()
        };
        if write().is_err() {
            self.discard();
            return false;
        }
        surgical_fs::sync_dir(&self.dir);
        surgical_fs::sync_dir(&journal.dir);
        journal.prune();
        true
    }
}

/// Ends a call's step: kept when the call succeeded (`ok`), dropped otherwise. Returns whether the
/// call can be undone.
pub(crate) fn close(journal: Option<&Journal>, step: Option<Step>, ok: bool) -> bool {
    match (journal, step) {
        (Some(journal), Some(step)) if ok => step.finish(journal),
        (_, Some(step)) => {
            step.discard();
            false
        }
        _ => false,
    }
}

/// The file's real path relative to the root.
fn key(root: &Path, real_path: &Path) -> String {
    real_path
        .strip_prefix(root)
        .unwrap_or(real_path)
        .to_string_lossy()
        .into_owned()
}

/// Removes the steps that a writer killed mid-call left incomplete (no metadata) and that no live
/// process can complete: their directory names a pid that is not ours and no longer exists.
///
/// Called at the start of every writing call, before the file is read: a step holds a hard link to
/// the file it replaces, made right before the rename, and a writer killed between the two leaves
/// that link. The file then has two links, and every later write would rewrite it in place, without
/// atomicity, until the ten-minute prune removed the step (issue 16). Removing it here rather than
/// teaching the writer which links to ignore keeps the writer's rule simple (a file with several
/// links is rewritten in place) and takes nothing a live writer needs: a step of a live process,
/// ours included, is left alone, and a pid reused by another process only delays the cleanup.
pub(crate) fn remove_orphans(root: &Root) {
    let Some(dir) = journal_dir(root.path()).map(|base| base.join("undo")) else {
        return;
    };
    let Ok(list) = fs::read_dir(&dir) else {
        return;
    };
    let mut removed = false;
    for step in list.flatten().map(|e| e.path()) {
        let pid = step
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.rsplit_once('-'))
            .and_then(|(_, pid)| pid.parse::<u32>().ok());
        let Some(pid) = pid else { continue };
        if pid == std::process::id() || step.join("meta.json").exists() || surgical_fs::process_exists(pid) {
            continue;
        }
        removed |= fs::remove_dir_all(&step).is_ok();
    }
    if removed {
        surgical_fs::sync_dir(&dir);
    }
}

/// Where the journal of `root` is kept: `<root>/.surgical`, or, when the root is the home directory
/// or the filesystem root, a directory in the user's state directory named after the root (`None`
/// when the home directory is unknown: no journal is kept then).
pub(crate) fn journal_dir(root: &Path) -> Option<PathBuf> {
    let home = std::env::home_dir().and_then(|h| fs::canonicalize(h).ok());
    if root.parent().is_some() && home.as_deref() != Some(root) {
        return Some(root.join(JOURNAL_DIR));
    }
    let state = if cfg!(windows) {
        std::env::var_os("LOCALAPPDATA").map(PathBuf::from)
    } else {
        home.map(|h| h.join(".local").join("state"))
    }?;
    let name: String = root
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    Some(state.join("surgical").join(format!("journal{name}")))
}

pub(crate) struct Journal {
    root: PathBuf,
    /// `None`: no journal can be kept for this root.
    base: Option<PathBuf>,
    dir: PathBuf,
}

impl Journal {
    pub(crate) fn new(root: &Root) -> Journal {
        let base = journal_dir(root.path());
        Journal {
            root: root.path().to_path_buf(),
            dir: base.as_ref().map_or_else(PathBuf::new, |b| b.join("undo")),
            base,
        }
    }

    /// The key of a file: its real path relative to the root.
    pub(crate) fn key(&self, real_path: &Path) -> String {
        key(&self.root, real_path)
    }

    /// The real path of a key.
    pub(crate) fn real_path(&self, key: &str) -> PathBuf {
        self.root.join(key)
    }

    /// Starts a step of `tool`: `None` when the journal cannot be written (the call goes ahead; it
    /// just cannot be undone).
    pub(crate) fn begin(&self, tool: &'static str) -> Option<Step> {
        self.base.as_ref()?;
        self.ensure_dir().ok()?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let dir = self.dir.join(format!("{:023}-{}", now.as_nanos(), std::process::id()));
        fs::create_dir(&dir).ok()?;
        Some(Step {
            dir,
            root: self.root.clone(),
            tool,
            time: now.as_secs(),
            files: Vec::new(),
            broken: false,
        })
    }

    /// The newest complete entry naming `real_path`.
    pub(crate) fn latest(&self, real_path: &Path) -> Option<Entry> {
        let key = self.key(real_path);
        self.entries()
            .into_iter()
            .rev()
            .find(|e| e.meta.files.iter().any(|f| f.path == key))
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
    pub(crate) fn entries(&self) -> Vec<Entry> {
        if self.base.is_none() {
            return Vec::new();
        }
        let Ok(list) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut dirs: Vec<PathBuf> = list.flatten().map(|e| e.path()).collect();
        dirs.sort();
        dirs.into_iter()
            .filter_map(|dir| {
                let mut meta: Meta = serde_json::from_slice(&fs::read(dir.join("meta.json")).ok()?).ok()?;
                if meta.files.is_empty() {
                    meta.files.push(FileMeta {
                        path: meta.path.take()?,
                        hash_before: meta.hash_before.take(),
                        hash_after: meta.hash_after.take(),
                        mode: None,
                    });
                    meta.tool = "edit".to_string();
                }
                Some(Entry { dir, meta })
            })
            .collect()
    }

    /// Drops the oldest entries beyond the bounds, and entries left incomplete (no metadata) by a
    /// process that died mid-call more than ten minutes ago.
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
        let size_of = |e: &Entry| -> u64 {
            fs::read_dir(&e.dir).map_or(0, |l| {
                l.flatten()
                    .filter(|f| f.file_name().to_string_lossy().starts_with("before"))
                    .map(|f| f.metadata().map_or(0, |m| m.len()))
                    .sum()
            })
        };
        let sizes: Vec<u64> = entries.iter().map(size_of).collect();
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

    /// One step of one changed file.
    fn record(j: &Journal, real_path: &Path, before: &[u8], hash_before: &str, hash_after: &str) -> bool {
        let mut step = j.begin("edit").unwrap();
        let Some(index) = step.add(real_path, Some(hash_before), before.len() as u64, None) else {
            step.discard();
            return false;
        };
        assert!(step.save(index, &[before]));
        step.set_after(index, Some(hash_after));
        step.finish(j)
    }

    #[test]
    fn record_latest_prune() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path()).unwrap();
        let j = Journal::new(&root);
        let file = root.path().join("src/a.rs");
        assert!(j.latest(&file).is_none());
        assert!(record(&j, &file, b"one", "h0", "h1"));
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(record(&j, &file, b"two", "h1", "h2"));
        let latest = j.latest(&file).unwrap();
        // The key is the path relative to the root, with the platform's separator.
        assert_eq!(
            latest.meta.files[0].path,
            Path::new("src").join("a.rs").to_string_lossy()
        );
        assert_eq!(latest.meta.files[0].hash_after.as_deref(), Some("h2"));
        assert_eq!(latest.before(0).unwrap(), b"two");
        latest.discard();
        assert_eq!(j.latest(&file).unwrap().meta.files[0].hash_after.as_deref(), Some("h1"));
        assert_eq!(
            fs::read_to_string(dir.path().join(".surgical/.gitignore"))
                .unwrap()
                .lines()
                .last(),
            Some("*")
        );
        for k in 0..MAX_ENTRIES + 5 {
            assert!(record(&j, &root.path().join(format!("f{k}")), b"x", "a", "b"));
        }
        assert_eq!(j.entries().len(), MAX_ENTRIES);
        let too_big = vec![0u8; MAX_FILE_BYTES as usize + 1];
        assert!(!record(&j, &file, &too_big, "a", "b"));
    }

    #[test]
    fn a_step_holds_created_changed_and_deleted_files_or_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path()).unwrap();
        let j = Journal::new(&root);
        let (new, changed, gone) = (
            root.path().join("new"),
            root.path().join("changed"),
            root.path().join("gone"),
        );
        let mut step = j.begin("apply_patch").unwrap();
        let a = step.add(&new, None, 0, None).unwrap();
        step.set_after(a, Some("n1"));
        let b = step.add(&changed, Some("c0"), 3, Some(0o644)).unwrap();
        assert!(step.save(b, &[b"old"]));
        step.set_after(b, Some("c1"));
        let c = step.add(&gone, Some("g0"), 4, Some(0o600)).unwrap();
        assert!(step.save(c, &[b"gone"]));
        step.set_after(c, None);
        assert!(step.finish(&j));
        let entry = j.latest(&gone).unwrap();
        assert_eq!(entry.meta.tool, "apply_patch");
        assert_eq!(entry.meta.files.len(), 3);
        assert_eq!(entry.meta.files[0].hash_before, None);
        assert_eq!(entry.meta.files[2].hash_after, None);
        assert_eq!(entry.meta.files[2].mode, Some(0o600));
        assert_eq!(entry.before(1).unwrap(), b"old");
        assert_eq!(entry.before(2).unwrap(), b"gone");
        assert_eq!(j.latest(&new).unwrap().meta, entry.meta);
        // A step with a file too large to keep is dropped whole.
        let mut step = j.begin("apply_patch").unwrap();
        step.add(&new, None, 0, None).unwrap();
        assert!(step.add(&changed, Some("c1"), MAX_FILE_BYTES + 1, None).is_none());
        assert!(!step.finish(&j));
        assert_eq!(j.entries().len(), 1);
    }

    #[test]
    fn entries_of_the_one_file_form_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path()).unwrap();
        let j = Journal::new(&root);
        let entry = dir.path().join(".surgical/undo/00001764500000123456789-1");
        fs::create_dir_all(&entry).unwrap();
        fs::write(entry.join("before"), "old").unwrap();
        fs::write(
            entry.join("meta.json"),
            r#"{"path":"a.txt","hashBefore":"h0","hashAfter":"h1","time":1}"#,
        )
        .unwrap();
        let e = j.latest(&root.path().join("a.txt")).unwrap();
        assert_eq!(e.meta.tool, "edit");
        assert_eq!(e.meta.files[0].hash_after.as_deref(), Some("h1"));
        assert_eq!(e.before(0).unwrap(), b"old");
    }

    #[test]
    fn no_journal_is_made_in_the_home_directory_or_the_filesystem_root() {
        let inside = Path::new("/srv/project");
        assert_eq!(journal_dir(inside), Some(inside.join(JOURNAL_DIR)));
        let top = std::env::current_dir()
            .unwrap()
            .ancestors()
            .last()
            .unwrap()
            .to_path_buf();
        let homes = [std::env::home_dir().and_then(|h| fs::canonicalize(h).ok()), Some(top)];
        for dir in homes.into_iter().flatten() {
            // Windows without LOCALAPPDATA keeps no journal there at all.
            let Some(journal) = journal_dir(&dir).or_else(|| cfg!(unix).then(|| panic!("no journal"))) else {
                continue;
            };
            assert_ne!(journal.parent(), Some(dir.as_path()), "{}", journal.display());
            // (Windows: `canonicalize` gives a verbatim `\\?\C:\…` path, LOCALAPPDATA a plain one.)
            let plain = |p: &Path| PathBuf::from(p.to_string_lossy().trim_start_matches(r"\\?\").to_string());
            // Inside the root (Unix: the state directory under the home directory, which `/` holds
            // too; Windows: LOCALAPPDATA, under the home directory but on the system drive, so not
            // under another drive's root).
            if cfg!(unix) || std::env::home_dir().is_some_and(|h| plain(&dir) == plain(&h)) {
                assert!(plain(&journal).starts_with(plain(&dir)), "{}", journal.display());
            }
            assert!(journal.to_string_lossy().contains("surgical"));
        }
    }
}
