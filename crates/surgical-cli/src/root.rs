//! The root rule of the commands people run (`edit`, `undo`, `apply`): which directory a command
//! works in, so that the same arguments find the same root, and so the same undo journal, from any
//! working directory.
//!
//! * `--root DIR` when given.
//! * Otherwise the project the file belongs to: the nearest directory, from the file's own
//!   directory upwards (symbolic links resolved first, so a link leading out of the current
//!   directory counts where it leads), that holds `.git`, `.hg`, `.jj` or `.surgical`. The home
//!   directory and the filesystem root are never taken for a project, even with a `.git` (a
//!   dotfiles repository would otherwise make every file under home one project).
//! * Otherwise the file's own directory.
//!
//! `apply` has no single file: it starts from the current directory instead, and the paths in the
//! patch are relative to the root found (as `git diff` writes them).
//!
//! The journal is kept in `<root>/.surgical/`, except when the root is the home directory or the
//! filesystem root (a file directly in either): the journal then goes to the user's state directory
//! (see `surgical_tool::Config`), so no `.surgical` ever appears in `/` or `~`.

use std::path::{Path, PathBuf};

/// What makes a directory a project root.
pub(crate) const MARKERS: [&str; 4] = [".git", ".hg", ".jj", ".surgical"];

/// The nearest of `start` (a real directory) and its ancestors holding one of [`MARKERS`], the home
/// directory and the filesystem root excepted; `start` when there is none.
pub(crate) fn project_root(start: &Path) -> PathBuf {
    let home = std::env::home_dir().and_then(|h| std::fs::canonicalize(h).ok());
    for dir in start.ancestors() {
        if dir.parent().is_none() || home.as_deref() == Some(dir) {
            continue;
        }
        if MARKERS.iter().any(|m| dir.join(m).exists()) {
            return dir.to_path_buf();
        }
    }
    start.to_path_buf()
}

/// Where `file` (relative to `base`) really leads: symbolic links resolved; for a file that does not
/// exist, its directory resolved and its name kept.
fn real_path(file: &Path, base: &Path) -> Result<PathBuf, String> {
    let full = base.join(file);
    if let Ok(real) = std::fs::canonicalize(&full) {
        return Ok(real);
    }
    match (full.parent(), full.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .map_err(|e| format!("cannot find {}: {e}", file.display())),
        _ => Err(format!("{} is not a file", file.display())),
    }
}

/// The root for `file` (the rule above) and the path to give the tool: the file's real path
/// relative to the root, or its real absolute path when it lies outside a `--root` given (the
/// tool then refuses it with `outside_root`). A relative `file` is relative to the current
/// directory, or, when `--root` is given, to the root (as in `surgical call`), so that a command
/// with `--root` means the same from anywhere.
pub(crate) fn for_file(file: &Path, root: Option<&Path>) -> Result<(PathBuf, String), String> {
    let (real, root) = match root {
        Some(root) => {
            let root = std::fs::canonicalize(root).map_err(|e| format!("--root {}: {e}", root.display()))?;
            (real_path(file, &root)?, root)
        }
        None => {
            let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
            let real = real_path(file, &cwd)?;
            let root = project_root(real.parent().unwrap_or(&real));
            (real, root)
        }
    };
    let shown = match real.strip_prefix(&root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
        _ => real.to_string_lossy().into_owned(),
    };
    Ok((root, shown))
}

/// The root for a command with no single file (`apply`): `--root` when given, else the project
/// root of the current directory.
pub(crate) fn for_cwd(root: Option<&Path>) -> Result<PathBuf, String> {
    match root {
        Some(root) => Ok(root.to_path_buf()),
        None => {
            let cwd = std::env::current_dir()
                .and_then(std::fs::canonicalize)
                .map_err(|e| format!("cannot read the current directory: {e}"))?;
            Ok(project_root(&cwd))
        }
    }
}
