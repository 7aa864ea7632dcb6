//! The real `surgical mcp` server, driven over stdio by the official MCP clients:
//!
//! - the Python client (PyPI `mcp`): `tests/mcp/test_mcp_server.py` initializes, lists the tools,
//!   reads, edits (exact and fuzzy), writes, undoes, hits every error path, and checks the files on
//!   disk byte for byte;
//! - the TypeScript SDK client (npm `@modelcontextprotocol/sdk`, what Node-based hosts are built on)
//!   and the MCP Inspector's CLI mode: `crates/surgical-mcp/tests/ts-client/surgical.test.mjs`, run
//!   with `node --test`, does the same through the SDK's own `callTool` (which validates results
//!   against the output schemas), plus progress, cancellation and the raw protocol answers.
//!
//! Setup, once, at the repository root (`.ci/run` does the same):
//!
//! ```sh
//! python3 -m venv .venv-mcp && .venv-mcp/bin/pip install -r tests/mcp/requirements.lock
//! (cd crates/surgical-mcp/tests/ts-client && npm ci)
//! ```
//!
//! or point `SURGICAL_MCP_PYTHON` at a Python that has `mcp` installed. Without either, the tests
//! set them up themselves (python3 and PyPI, node, npm and the npm registry needed); if that fails,
//! they fail (saying so) unless `SURGICAL_SKIP_MCP_CLIENT_TEST=1`, which is refused under `CI=true`:
//! in CI a missing client is a failure, never a skip. `SURGICAL_BIN` names a prebuilt `surgical`
//! binary to test; by default it is this package's own, built by cargo for its tests. (The test
//! lives here, not in surgical-mcp, for that: built from there, the binary was a second variant of
//! surgical-cli and surgical-mcp with other features, compiled again in the middle of the test
//! run: issue 29.)

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const SETUP: &str = "the MCP client test needs Python with the official `mcp` package. At the repository root run\n\
    \n    python3 -m venv .venv-mcp && .venv-mcp/bin/pip install -r tests/mcp/requirements.lock\n\n\
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
        eprintln!("creating .venv-mcp with the official MCP client (pip install -r tests/mcp/requirements.lock)...");
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
                    "-r",
                    "tests/mcp/requirements.lock",
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

/// The `surgical` binary: `SURGICAL_BIN`, else this package's own, which cargo builds for its
/// tests with the same features (so nothing is built twice, and never a stale one is run).
fn surgical_binary() -> PathBuf {
    env::var_os("SURGICAL_BIN")
        .filter(|p| !p.is_empty())
        .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_surgical")), PathBuf::from)
}

/// Whether the client tests are to be skipped: `SURGICAL_SKIP_MCP_CLIENT_TEST=1`, never under
/// `CI=true`.
fn skip_client_tests(which: &str) -> bool {
    if env::var("SURGICAL_SKIP_MCP_CLIENT_TEST").as_deref() != Ok("1") {
        return false;
    }
    assert!(
        env::var("CI").as_deref() != Ok("true"),
        "SURGICAL_SKIP_MCP_CLIENT_TEST=1 is not honoured under CI=true: the {which} client test must run"
    );
    say_skipped(&format!(
        "the {which} MCP client test did not run (SURGICAL_SKIP_MCP_CLIENT_TEST=1); it passes here without testing anything"
    ));
    true
}

/// A skip, said where it is seen: the test harness captures `eprintln!` of a passing test, so a
/// skipped test would read as a silent pass; a write to the process's stderr is not captured.
fn say_skipped(what: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {what}");
}

const TS_SETUP: &str = "the TypeScript MCP client test needs node (20 or later) and npm. At the repository root run\n\
    \n    (cd crates/surgical-mcp/tests/ts-client && npm ci)\n\n\
    To skip this test outside CI, set SURGICAL_SKIP_MCP_CLIENT_TEST=1.";

/// The directory of the TypeScript client test, its packages installed (`npm ci`, from
/// package-lock.json) if they are not yet.
fn ts_client_dir() -> PathBuf {
    let dir = repo_root().join("crates/surgical-mcp/tests/ts-client");
    let sdk = dir.join("node_modules/@modelcontextprotocol/sdk/package.json");
    let inspector = dir.join("node_modules/@modelcontextprotocol/inspector-cli/package.json");
    if !(sdk.exists() && inspector.exists()) {
        eprintln!("installing the TypeScript MCP client (npm ci in {})...", dir.display());
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status();
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => panic!("npm ci failed ({s}): {TS_SETUP}"),
            Err(e) => panic!("npm cannot be run ({e}): {TS_SETUP}"),
        }
    }
    dir
}

#[test]
#[cfg_attr(
    windows,
    ignore = "runs node or Python MCP clients, which the Windows CI (Wine) does not have"
)]
fn official_typescript_client_drives_surgical_mcp() {
    if skip_client_tests("TypeScript") {
        return;
    }
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout);
            let major: u32 = version
                .trim()
                .trim_start_matches('v')
                .split('.')
                .next()
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            assert!(major >= 20, "node {} is too old: {TS_SETUP}", version.trim());
        }
        Ok(out) => panic!("node --version failed ({}): {TS_SETUP}", out.status),
        Err(e) => panic!("node cannot be run ({e}): {TS_SETUP}"),
    }
    let dir = ts_client_dir();
    let server = surgical_binary();
    // The lock-holding helper of the cancellation test is Python: the same as the Python test's.
    let mut node = Command::new("node");
    node.args(["--test", "--test-reporter=spec", "surgical.test.mjs"])
        .current_dir(&dir)
        .env("SURGICAL_BIN", &server);
    if let Some(python) = env::var_os("SURGICAL_MCP_PYTHON").filter(|p| !p.is_empty()) {
        node.env("SURGICAL_MCP_PYTHON", python);
    }
    let out = node.output().expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success() && stdout.contains("fail 0"),
        "the TypeScript MCP client checks failed (exit {:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "runs node or Python MCP clients, which the Windows CI (Wine) does not have"
)]
fn official_python_client_drives_surgical_mcp() {
    if skip_client_tests("Python") {
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
