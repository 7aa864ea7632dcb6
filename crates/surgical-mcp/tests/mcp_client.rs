//! The real `surgical mcp` server, driven over stdio by the official MCP Python client (PyPI `mcp`):
//! `tests/mcp/test_mcp_server.py` initializes, lists the tools, reads, edits (exact and fuzzy),
//! writes, undoes, hits every error path, and checks the files on disk byte for byte.
//!
//! Setup, once, at the repository root (`.ci/run` does the same):
//!
//! ```sh
//! python3 -m venv .venv-mcp && .venv-mcp/bin/pip install 'mcp>=2.3,<3'
//! ```
//!
//! or point `SURGICAL_MCP_PYTHON` at a Python that has `mcp` installed. Without either, the test
//! creates `.venv-mcp` itself (python3 and PyPI needed); if that fails, it fails (saying so)
//! unless `SURGICAL_SKIP_MCP_CLIENT_TEST=1`. `SURGICAL_BIN` names a prebuilt
//! `surgical` binary to test; by default the test builds the workspace's own (a no-op when `cargo
//! test --workspace` built it already), so it never runs a stale one.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

const SETUP: &str = "the MCP client test needs Python with the official `mcp` package. At the repository root run\n\
    \n    python3 -m venv .venv-mcp && .venv-mcp/bin/pip install 'mcp>=2.3,<3'\n\n\
    or set SURGICAL_MCP_PYTHON to a Python interpreter that has `mcp` installed (2.x). To skip this test, set \
    SURGICAL_SKIP_MCP_CLIENT_TEST=1.";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// `SURGICAL_MCP_PYTHON`, else `.venv-mcp/bin/python` at the repository root, created now (with
/// `python3 -m venv` and pip from PyPI) if it does not exist yet, so that `cargo test --workspace`
/// alone runs every test on a fresh machine.
fn python() -> Option<PathBuf> {
    if let Some(p) = env::var_os("SURGICAL_MCP_PYTHON").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let root = repo_root();
    let venv = root.join(".venv-mcp/bin/python");
    if !venv.exists() {
        eprintln!("creating .venv-mcp with the official MCP client (pip install 'mcp>=2.3,<3')...");
        let created = Command::new("python3")
            .args(["-m", "venv", ".venv-mcp"])
            .current_dir(&root)
            .status();
        let installed = created.is_ok_and(|s| s.success())
            && Command::new(&venv)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "mcp>=2.3,<3",
                ])
                .current_dir(&root)
                .status()
                .is_ok_and(|s| s.success());
        if !installed {
            let _ = std::fs::remove_dir_all(root.join(".venv-mcp"));
            return None;
        }
    }
    venv.exists().then_some(venv)
}

/// The `surgical` binary: `SURGICAL_BIN`, else the workspace's, built now (once) in this test's
/// profile.
fn surgical_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(build_surgical).clone()
}

fn build_surgical() -> PathBuf {
    if let Some(p) = env::var_os("SURGICAL_BIN").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    // This test runs as target/<profile>/deps/mcp_client-<hash>; the binary goes to target/<profile>/.
    let exe = env::current_exe().expect("the test knows its path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test binary lives in target/<profile>/deps")
        .to_path_buf();
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .args(["build", "--quiet", "-p", "surgical-cli", "--bin", "surgical"])
        .current_dir(repo_root());
    // The profile `cargo test` built the binary with, so this build finds it fresh instead of
    // rebuilding everything in another profile.
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        build.arg("--release");
    } else {
        build.args(["--profile", "test"]);
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "building the surgical binary failed");
    let bin = profile_dir.join("surgical");
    assert!(bin.exists(), "no surgical binary at {}", bin.display());
    bin
}

#[test]
fn official_python_client_drives_surgical_mcp() {
    if env::var("SURGICAL_SKIP_MCP_CLIENT_TEST").as_deref() == Ok("1") {
        eprintln!("skipped: the MCP client test (SURGICAL_SKIP_MCP_CLIENT_TEST=1)");
        return;
    }
    let Some(python) = python() else {
        panic!("{SETUP}");
    };
    let probe = Command::new(&python).args(["-c", "import mcp"]).output();
    match probe {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "{} cannot import mcp ({}): {SETUP}",
            python.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => panic!("{} cannot be run ({e}): {SETUP}", python.display()),
    }

    let server = surgical_binary();
    let script = repo_root().join("tests/mcp/test_mcp_server.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg("--server")
        .arg(&server)
        .output()
        .expect("the client script runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success() && stdout.contains(" passed, 0 failed"),
        "the MCP client checks failed (exit {:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
}

#[test]
fn tools_command_prints_every_format() {
    let bin = surgical_binary();
    for (format, name_at) in [
        ("mcp", "/0/name"),
        ("anthropic", "/0/name"),
        ("openai", "/0/function/name"),
    ] {
        let out = Command::new(&bin).args(["tools", "--format", format]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        let defs: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            defs,
            surgical_mcp::definitions(surgical_mcp::Format::parse(format).unwrap())
        );
        assert_eq!(defs.pointer(name_at).and_then(Value::as_str), Some("read"), "{format}");
    }
    // The default is mcp; an unknown format is a usage error.
    let out = Command::new(&bin).arg("tools").output().unwrap();
    let defs: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(defs[0].get("inputSchema").is_some());
    let out = Command::new(&bin).args(["tools", "--format", "yaml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn mcp_command_refuses_a_root_that_is_not_a_directory() {
    let bin = surgical_binary();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, "x").unwrap();
    for root in [file, dir.path().join("missing")] {
        let out = Command::new(&bin).arg("mcp").arg("--root").arg(&root).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", root.display());
        assert!(out.stdout.is_empty(), "stdout is for the protocol only");
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a directory"));
    }
}
