"""Shared by the tests: the `surgical` binary the results are compared with, and the fixtures."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

REPO = Path(__file__).resolve().parents[3]


def surgical_bin() -> Optional[Path]:
    """$SURGICAL_BIN, or the workspace's debug build."""
    path = Path(os.environ.get("SURGICAL_BIN", REPO / "target" / "debug" / "surgical"))
    return path if path.exists() else None


@pytest.fixture
def bin_path() -> Path:
    """The `surgical` command; under CI=true a missing binary fails the test instead of skipping it."""
    path = surgical_bin()
    if path is None:
        why = "no surgical binary (build it with cargo build -p surgical-cli, or set SURGICAL_BIN)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    return path


def cli_call(bin_path: Path, tool: str, call: Any, root: Path, flags: List[str] = ["--no-undo"]) -> Dict[str, Any]:
    """`surgical call TOOL --root ROOT` with `call` on stdin: the parsed result object."""
    out = subprocess.run(
        [str(bin_path), "call", tool, "--root", str(root), *flags],
        input=json.dumps(call).encode(),
        capture_output=True,
        check=False,
    )
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def fixtures() -> List[Dict[str, Any]]:
    """The data-driven cases in tests/fixtures/NAME: input bytes, edit.json (the call without path),
    and expected (bytes after) or error (the code)."""
    base = REPO / "tests" / "fixtures"
    cases = []
    for d in sorted(base.iterdir()):
        cases.append(
            {
                "name": d.name,
                "input": (d / "input").read_bytes(),
                "call": json.loads((d / "edit.json").read_text()),
                "expected": (d / "expected").read_bytes() if (d / "expected").exists() else None,
                "error": (d / "error").read_text().strip() if (d / "error").exists() else None,
            }
        )
    assert len(cases) >= 20
    return cases


def rooted(result: Any, root: Path) -> Any:
    """The result with its root's path replaced by <root> (error messages name it)."""
    text = json.dumps(result)
    for form in {str(root), str(root.resolve())}:
        text = text.replace(form, "<root>")
    return json.loads(text)
