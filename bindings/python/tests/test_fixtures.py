"""Every fixture through `surgical call edit`, surgical.edit, surgical.aio.edit and apply_edits: the
same result object and the same bytes on disk; and, for a single replacement, through
text_editor's str_replace, the same bytes as `surgical call text_editor`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import surgical
import surgical.aio
from conftest import cli_call, fixtures

CASES = fixtures()


def roots(tmp_path: Path, data: bytes, names=("cli", "sync", "async")):
    out = []
    for name in names:
        root = tmp_path / name
        root.mkdir()
        (root / "f").write_bytes(data)
        out.append(root)
    return out


@pytest.mark.parametrize("fx", CASES, ids=[c["name"] for c in CASES])
def test_the_binding_gives_what_surgical_call_edit_gives(fx, tmp_path, bin_path):
    call = {"path": "f", **fx["call"]}
    cli_root, sync_root, async_root = roots(tmp_path, fx["input"])
    results = [
        cli_call(bin_path, "edit", call, cli_root),
        surgical.edit(call, root=cli_root.parent / "sync", undo=False),
        asyncio.run(surgical.aio.edit(call, root=async_root, undo=False)),
    ]
    assert results[1] == results[0]
    assert results[2] == results[0]
    after = [(r / "f").read_bytes() for r in (cli_root, sync_root, async_root)]
    assert after[1] == after[0] and after[2] == after[0]
    if fx["expected"] is not None:
        assert results[0]["ok"] is True, results[0]["text"]
        assert after[0] == fx["expected"]
    else:
        assert results[0]["ok"] is False
        assert results[0]["error"]["code"] == fx["error"]
        assert after[0] == fx["input"], "a failed edit leaves the file untouched"

    # The in-memory engine: the same bytes, diff, patch and reports, or the same error.
    edits = call.get("edits") or [
        {k: v for k, v in call.items() if k in ("oldText", "newText", "replaceAll")}
    ]
    if fx["expected"] is not None:
        done = surgical.apply_edits(fx["input"], edits, path="f", max_strategy=call.get("maxStrategy"))
        assert done["text"] == fx["expected"]
        for key in ("diff", "patch", "edits", "firstChangedLine", "encoding"):
            assert done[key] == results[0][key], key
    else:
        with pytest.raises(surgical.EditError) as raised:
            surgical.apply_edits(fx["input"], edits, path="f")
        assert raised.value.code == fx["error"]
        assert str(raised.value) == results[0]["text"]


SINGLE = [c for c in CASES if ("oldText" in c["call"] and "replaceAll" not in c["call"]) or len(c["call"].get("edits", [])) == 1]


@pytest.mark.parametrize("fx", SINGLE, ids=[c["name"] for c in SINGLE])
def test_str_replace_writes_the_fixtures_bytes(fx, tmp_path, bin_path):
    one = fx["call"]["edits"][0] if "edits" in fx["call"] else fx["call"]
    call = {"command": "str_replace", "path": "f", "old_str": one["oldText"], "new_str": one["newText"]}
    cli_root, sync_root = roots(tmp_path, fx["input"], ("cli", "sync"))
    expected = cli_call(bin_path, "text_editor", call, cli_root)
    assert surgical.text_editor(call, root=sync_root, undo=False) == expected
    after = (sync_root / "f").read_bytes()
    assert after == (cli_root / "f").read_bytes()
    assert after == (fx["expected"] if fx["expected"] is not None else fx["input"])
    if fx["error"]:
        assert expected["error"]["code"] == fx["error"]


def test_apply_edits_keeps_the_type_and_the_bytes():
    done = surgical.apply_edits("a\r\nb\r\n", [{"oldText": "b\n", "newText": "c\n"}])
    assert done["text"] == "a\r\nc\r\n" and done["firstChangedLine"] == 2
    assert done["patch"].startswith("--- a/file\n+++ b/file\n")
    raw = bytes([0x66, 0xFF, 0x0A, 0x78, 0x0A])
    assert surgical.apply_edits(raw, [{"oldText": "x", "newText": "y"}])["text"] == bytes([0x66, 0xFF, 0x0A, 0x79, 0x0A])
    assert surgical.apply_edits(bytearray(b"x\n"), [{"oldText": "x", "newText": "y"}])["text"] == b"y\n"
    with pytest.raises(surgical.EditError) as raised:
        surgical.apply_edits("x", [])
    assert raised.value.code == "invalid_input"
    with pytest.raises(surgical.EditError):
        surgical.apply_edits("x", [{"oldText": "x", "newText": "y"}], max_strategy="psychic")
    with pytest.raises(TypeError):
        surgical.apply_edits(12, [])
