//! The root rule of `surgical edit`, `undo` and `apply`: the same file finds the same root, and so
//! the same undo journal, from any working directory; no journal in the home directory or `/`;
//! `undo --list`.

use std::path::Path;
use std::process::Output;

mod common;
use common::{bin, Run};

/// Runs `surgical ARGS` in `cwd` with `home` as the home directory.
fn run(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    bin()
        .current_dir(cwd)
        .env("HOME", home)
        .env("USERPROFILE", home)
        .env("LOCALAPPDATA", home.join("AppData").join("Local"))
        .env("NO_COLOR", "1")
        .args(args)
        .run()
}

fn ok(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A temporary tree: `home/`, `proj/` (a git project) with `proj/src/a.txt`, `plain/f.txt`
/// (no project), `elsewhere/`. Canonical paths, so that they compare with what the binary prints.
struct Tree {
    _dir: tempfile::TempDir,
    top: std::path::PathBuf,
}

impl Tree {
    fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        for d in ["home", "proj/.git", "proj/src", "plain", "elsewhere"] {
            std::fs::create_dir_all(top.join(d)).unwrap();
        }
        std::fs::write(top.join("proj/src/a.txt"), "one\n").unwrap();
        std::fs::write(top.join("plain/f.txt"), "one\n").unwrap();
        Tree { _dir: dir, top }
    }

    fn p(&self, rel: &str) -> std::path::PathBuf {
        self.top.join(rel)
    }

    fn home(&self) -> std::path::PathBuf {
        self.p("home")
    }
}

#[test]
fn edit_and_undo_find_the_same_journal_from_any_directory() {
    let t = Tree::new();
    // Edited from outside the project: the journal goes to the project, not the current directory.
    ok(&run(
        &t.top,
        &t.home(),
        &["edit", "proj/src/a.txt", "--old", "one", "--new", "two"],
    ));
    assert!(t.p("proj/.surgical/undo").is_dir());
    assert!(!t.top.join(".surgical").exists() && !t.p("proj/src/.surgical").exists());
    ok(&run(
        &t.p("proj/src"),
        &t.home(),
        &["edit", "a.txt", "--old", "two", "--new", "three"],
    ));
    // Undone from two other directories, with the path as each sees it.
    ok(&run(&t.p("elsewhere"), &t.home(), &["undo", "../proj/src/a.txt"]));
    assert_eq!(std::fs::read(t.p("proj/src/a.txt")).unwrap(), b"two\n");
    ok(&run(&t.p("proj"), &t.home(), &["undo", "src/a.txt"]));
    assert_eq!(std::fs::read(t.p("proj/src/a.txt")).unwrap(), b"one\n");
    let out = run(&t.p("proj/src"), &t.home(), &["undo", "a.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_undo"));

    // No project: the file's own directory, whichever the current one.
    ok(&run(
        &t.top,
        &t.home(),
        &["edit", "plain/f.txt", "--old", "one", "--new", "two"],
    ));
    assert!(t.p("plain/.surgical/undo").is_dir() && !t.top.join(".surgical").exists());
    ok(&run(&t.p("plain"), &t.home(), &["undo", "f.txt"]));
    assert_eq!(std::fs::read(t.p("plain/f.txt")).unwrap(), b"one\n");
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_current_directory_is_journaled_where_it_leads() {
    let t = Tree::new();
    std::os::unix::fs::symlink(t.p("proj/src/a.txt"), t.p("elsewhere/link.txt")).unwrap();
    ok(&run(
        &t.p("elsewhere"),
        &t.home(),
        &["edit", "link.txt", "--old", "one", "--new", "two"],
    ));
    assert!(!t.p("elsewhere/.surgical").exists());
    assert!(t.p("proj/.surgical/undo").is_dir());
    assert!(std::fs::symlink_metadata(t.p("elsewhere/link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    // Undone through the link or through the file itself alike.
    ok(&run(&t.p("proj"), &t.home(), &["undo", "src/a.txt"]));
    assert_eq!(std::fs::read(t.p("proj/src/a.txt")).unwrap(), b"one\n");
}

#[test]
fn no_journal_is_made_directly_in_the_home_directory() {
    let t = Tree::new();
    let home = t.home();
    std::fs::write(home.join("notes.txt"), "one\n").unwrap();
    // A dotfiles repository in the home directory does not make home a project.
    std::fs::create_dir(home.join(".git")).unwrap();
    std::fs::create_dir(home.join("sub")).unwrap();
    std::fs::write(home.join("sub/x.txt"), "one\n").unwrap();
    ok(&run(
        &home,
        &home,
        &["edit", "notes.txt", "--old", "one", "--new", "two"],
    ));
    ok(&run(
        &home,
        &home,
        &["edit", "sub/x.txt", "--old", "one", "--new", "two"],
    ));
    assert!(!home.join(".surgical").exists());
    assert!(home.join("sub/.surgical/undo").is_dir());
    ok(&run(&t.top, &home, &["undo", "home/notes.txt"]));
    assert_eq!(std::fs::read(home.join("notes.txt")).unwrap(), b"one\n");
    assert!(!home.join(".surgical").exists());
}

#[test]
fn a_file_outside_the_root_given_names_the_flag() {
    let t = Tree::new();
    let out = run(
        &t.top,
        &t.home(),
        &[
            "edit",
            "../plain/f.txt",
            "--root",
            "proj",
            "--old",
            "one",
            "--new",
            "two",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outside_root") && err.contains("--root DIR"), "{err}");
    assert_eq!(std::fs::read(t.p("plain/f.txt")).unwrap(), b"one\n");
}

#[test]
fn apply_uses_the_project_of_the_current_directory_and_undo_list_shows_the_journal() {
    let t = Tree::new();
    let patch = t.p("elsewhere/p.patch");
    std::fs::write(
        &patch,
        "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-one\n+two\n*** Add File: src/new.txt\n+new\n*** End Patch\n",
    )
    .unwrap();
    // From a subdirectory of the project: paths are relative to the project, as git writes them.
    ok(&run(&t.p("proj/src"), &t.home(), &["apply", patch.to_str().unwrap()]));
    assert_eq!(std::fs::read(t.p("proj/src/a.txt")).unwrap(), b"two\n");
    let out = run(&t.p("proj/src"), &t.home(), &["undo", "--list"]);
    ok(&out);
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(list.contains("apply_patch"), "{list}");
    assert!(list.contains("restore") && list.contains("remove"), "{list}");
    let out = run(&t.p("proj"), &t.home(), &["undo", "--list", "--json"]);
    ok(&out);
    let steps: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(steps[0]["tool"], "apply_patch");
    assert_eq!(steps[0]["files"][1]["undo"], "remove");
    assert_eq!(steps[0]["files"][1]["unchanged"], true);
    // One undo takes back the whole patch.
    ok(&run(&t.p("proj/src"), &t.home(), &["undo", "new.txt"]));
    assert!(!t.p("proj/src/new.txt").exists());
    assert_eq!(std::fs::read(t.p("proj/src/a.txt")).unwrap(), b"one\n");
    let out = run(&t.p("proj"), &t.home(), &["undo", "--list"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nothing to undo"));
    // --list and a file conflict, and the usage says so.
    let out = run(&t.p("proj"), &t.home(), &["undo", "--list", "src/a.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
}
