"""read, write, apply_patch, apply_snippet, undo and text_editor: the result object of `surgical call`,
sync and async; the options; exceptions only for misuse of the API."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import surgical
import surgical.aio
from conftest import cli_call, rooted

CASES = [
    ("read", {"path": "a.txt", "startLine": 2, "endLine": 3}, {"a.txt": b"one\r\ntwo\r\nthree\r\nfour\r\n"}),
    ("read", {"path": "missing.txt"}, {}),
    ("write", {"path": "new/b.txt", "content": "hello\nworld\n"}, {}),
    ("write", {"path": "a.txt", "content": "x\ny\n"}, {"a.txt": b"x\r\nz\r\n"}),
    ("write", {"path": "../outside.txt", "content": "no"}, {}),
    ("apply_patch", {"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** End Patch\n"}, {"a.txt": b"one\r\ntwo\r\nthree\r\n"}),
    ("apply_patch", {"patch": "not a patch"}, {"a.txt": b"one\n"}),
    ("edit", {"path": "a.txt", "edits": "not json"}, {"a.txt": b"one\n"}),
    ("apply_snippet", {"path": "a.txt", "snippet": "// ... existing code ...\nfn b() {\n    two();\n}\n"},
     {"a.txt": b"fn a() {\r\n    one();\r\n}\r\nfn b() {\r\n    zwei();\r\n}\r\n"}),
    ("apply_snippet", {"path": "a.txt", "snippet": "// ...\n}\n// ...\n"}, {"a.txt": b"f {\n}\ng {\n}\n"}),
    ("text_editor", {"command": "view", "path": "a.txt", "view_range": [2, -1]}, {"a.txt": b"one\r\ntwo\r\n"}),
    ("text_editor", {"command": "view", "path": "."}, {"a.txt": b"x", "d/b.txt": b"y", ".hidden": b""}),
    ("text_editor", {"command": "insert", "path": "a.txt", "insert_line": 1, "insert_text": "new"}, {"a.txt": b"\xef\xbb\xbfone\r\ntwo\r\n"}),
    ("text_editor", {"command": "str_replace", "path": "a.txt", "old_str": "tw0", "new_str": "2"}, {"a.txt": b"one\ntwo\n"}),
    ("text_editor", {"command": "create", "path": "c/n.txt", "file_text": "n\n"}, {}),
    ("text_editor", {"command": "create", "path": "a.txt", "file_text": "n\n"}, {"a.txt": b"keep"}),
]


def populate(root: Path, files) -> None:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


@pytest.mark.parametrize("tool,call,files", CASES, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(CASES)])
def test_the_same_result_as_surgical_call(tool, call, files, tmp_path, bin_path):
    roots = []
    for name in ("cli", "sync", "async"):
        root = tmp_path / name
        root.mkdir()
        populate(root, files)
        roots.append(root)
    results = [
        cli_call(bin_path, tool, call, roots[0]),
        getattr(surgical, tool)(call, root=roots[1], undo=False),
        asyncio.run(getattr(surgical.aio, tool)(call, root=roots[2], undo=False)),
    ]
    cli, sync, aio = (rooted(r, root) for r, root in zip(results, roots))
    assert sync == cli
    assert aio == cli
    for name in ("a.txt", "new/b.txt", "c/n.txt"):
        paths = [r / name for r in roots]
        if paths[0].exists():
            assert paths[1].read_bytes() == paths[0].read_bytes() == paths[2].read_bytes(), name


def test_undo_restores_what_edit_changed(tmp_path):
    f = tmp_path / "u.txt"
    f.write_bytes(b"a\r\nb\r\n")
    done = surgical.edit({"path": "u.txt", "oldText": "b", "newText": "c"}, root=tmp_path)
    assert done["ok"] and done["undoAvailable"]
    assert surgical.undo({"path": "u.txt"}, root=tmp_path)["ok"]
    assert f.read_bytes() == b"a\r\nb\r\n"
    assert asyncio.run(surgical.aio.undo({"path": "u.txt"}, root=tmp_path))["error"]["code"] == "no_undo"


def test_options(tmp_path):
    (tmp_path / "big.txt").write_text("x" * 100)
    r = surgical.edit({"path": "big.txt", "oldText": "x", "newText": "y", "replaceAll": True}, root=tmp_path, max_file_size=10)
    assert r["error"]["code"] == "too_large"
    for bad in (-1, 1.5, "10", True):
        with pytest.raises((TypeError, ValueError), match="max_file_size"):
            surgical.edit({"path": "big.txt", "oldText": "x", "newText": "y"}, root=tmp_path, max_file_size=bad)
    (tmp_path / "a.txt").write_text("a\n")
    r = surgical.edit({"path": "a.txt", "oldText": "a", "newText": "b"}, root=str(tmp_path), undo=False)
    assert r["undoAvailable"] is False
    assert not (tmp_path / ".surgical").exists()
    assert surgical.read({"path": "../../etc/passwd"}, root=tmp_path)["error"]["code"] == "outside_root"
    assert surgical.read({"path": "/etc/passwd"}, root=tmp_path)["error"]["code"] == "outside_root"


def test_misuse_raises_and_tool_failures_are_results(tmp_path):
    # Not an object: the tool says so, as `surgical call` does.
    assert surgical.edit("nope", root=tmp_path)["error"]["code"] == "invalid_input"
    assert surgical.text_editor({"command": "delete", "path": "x"}, root=tmp_path)["error"]["code"] == "invalid_input"
    with pytest.raises(TypeError, match="JSON"):
        surgical.edit({"path": "a", "edits": [object()]}, root=tmp_path)
    with pytest.raises(TypeError, match="keys"):
        surgical.edit({1: "a"}, root=tmp_path)
    with pytest.raises(ValueError, match="unknown tool"):
        surgical.call("delete_everything", {"path": "x"}, root=tmp_path)
    with pytest.raises(ValueError, match="JSON number"):
        surgical.read({"path": "a", "limit": float("nan")}, root=tmp_path)
    with pytest.raises(TypeError):
        surgical.read({"path": "a"}, root=tmp_path, undo="yes")
    # Names of Anthropic's tool are accepted; a huge number is the tool's invalid_input.
    r = surgical.call("str_replace_based_edit_tool", {"command": "view", "path": "a", "view_range": [1, 10**30]}, root=tmp_path)
    assert r["ok"] is False


def test_a_cancelled_flag_stops_a_call_before_it_writes(tmp_path):
    (tmp_path / "a.txt").write_text("a\n")
    token = surgical.Cancellation()
    assert not token.cancelled
    token.cancel()
    r = surgical.edit({"path": "a.txt", "oldText": "a", "newText": "b"}, root=tmp_path, cancellation=token)
    assert r["error"]["code"] == "cancelled"
    assert (tmp_path / "a.txt").read_text() == "a\n"
    # Reading writes nothing: it is not cancelled.
    assert surgical.read({"path": "a.txt"}, root=tmp_path, cancellation=token)["ok"]
