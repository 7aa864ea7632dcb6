//! Test support: the permission tests run for real when the tests run as root (as CI does), by
//! running the test again as an unprivileged user, since root ignores permission bits.

use std::process::Command;

/// Marks the unprivileged re-run, so that a re-run that is still root fails instead of looping.
const CHILD: &str = "SURGICAL_TEST_UNPRIVILEGED";

/// When running as root, runs the test `name` (its path in this crate, e.g.
/// `writer::tests::read_only_directory_refuses_write`) again in a copy of this test binary as user
/// and group 65534 (`nobody`) with `setpriv`, asserts that it ran and passed, and returns `true`:
/// the caller is done. Returns `false` when not root: the caller runs the test itself. Outside
/// Linux (no `setpriv`), root runs return `true` without running: there are no root CI runs there.
pub(crate) fn rerun_as_nobody(name: &str) -> bool {
    if !crate::sys::is_root() {
        return false;
    }
    assert!(
        std::env::var_os(CHILD).is_none(),
        "the unprivileged re-run of {name} is still root"
    );
    if !cfg!(target_os = "linux") {
        return true;
    }
    // A copy nobody can execute: the build directory may not be reachable for other users.
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("tests");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    set_mode(dir.path(), 0o755);
    set_mode(&exe, 0o755);
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&exe)
        .args(["--exact", name, "--test-threads=1"])
        .env(CHILD, "1")
        .env("TMPDIR", std::env::temp_dir())
        .current_dir("/")
        .output()
        .unwrap_or_else(|e| panic!("setpriv, to run {name} unprivileged: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{name} failed as an unprivileged user:\n{report}");
    assert!(
        stdout.contains("1 passed"),
        "{name} did not run as an unprivileged user:\n{report}"
    );
    true
}

fn set_mode(path: &std::path::Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}
