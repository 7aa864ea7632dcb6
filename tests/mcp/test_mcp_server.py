"""Drives the real `surgical mcp` server through the official MCP Python client (PyPI `mcp`).

Usage:
    python tests/mcp/test_mcp_server.py --server target/debug/surgical

The script makes a workspace in a temporary directory, starts `surgical mcp --root <workspace>` over
stdio, initializes, lists the tools, and calls them: reads (CRLF, BOM, UTF-16, invalid UTF-8,
paging), edits (exact and fuzzy), writes (new files, overwrites keeping BOM and line endings), undo,
and every error path. After each call it checks the file on disk byte for byte. It prints one line
per check and a closing "N passed, N failed" line, and exits 1 if any check failed.

The Rust test crates/surgical-cli/tests/mcp_client.rs runs this script (see there for the setup).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Awaitable, Callable

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Checks:
    """A session with the server, a workspace, and the helpers every check uses."""

    def __init__(self, session: ClientSession, root: Path) -> None:
        self.session = session
        self.root = root

    def put(self, name: str, data: bytes) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def bytes_of(self, name: str) -> bytes:
        return (self.root / name).read_bytes()

    async def call(self, tool: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any], bool]:
        """Calls a tool; returns the text the model sees, the structured result and isError."""
        result = await self.session.call_tool(tool, arguments)
        assert len(result.content) == 1, result.content
        text = result.content[0].text
        structured = result.structured_content
        assert isinstance(structured, dict), structured
        # The model-facing text and the structured result agree.
        assert structured["text"] == text, (structured["text"], text)
        return text, structured, bool(result.is_error)

    async def ok(self, tool: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        text, structured, is_error = await self.call(tool, arguments)
        assert not is_error, text
        assert structured["ok"] is True, structured
        return text, structured

    async def fails(self, tool: str, arguments: dict[str, Any], code: str, untouched: str | None = None) -> dict[str, Any]:
        """The call is a tool error with `code`, and the file `untouched` (if given) is unchanged."""
        before = self.bytes_of(untouched) if untouched else None
        text, structured, is_error = await self.call(tool, arguments)
        assert is_error, f"expected isError for {tool} {arguments}: {text}"
        assert structured["ok"] is False, structured
        assert structured["error"]["code"] == code, (code, structured)
        assert text.startswith(f"Error ({code}): "), text
        if untouched:
            assert self.bytes_of(untouched) == before, f"{untouched} changed on a failed {tool}"
        return structured["error"]


async def check_initialize(c: Checks, init: Any) -> None:
    assert init.server_info.name == "surgical", init.server_info
    assert init.capabilities.tools is not None, init.capabilities
    assert str(c.root.resolve()) in (init.instructions or ""), init.instructions


async def check_list_tools(c: Checks, _: Any) -> None:
    listed = await c.session.list_tools()
    tools = {t.name: t for t in listed.tools}
    assert list(tools) == ["read", "edit", "write", "apply_patch", "apply_snippet", "undo", "text_editor"], list(tools)
    for tool in listed.tools:
        assert tool.description and len(tool.description) > 100, tool.name
        assert tool.input_schema["type"] == "object", tool.input_schema
        required = {"apply_patch": "patch", "text_editor": "command"}.get(tool.name, "path")
        assert required in tool.input_schema["required"], tool.input_schema
        assert tool.output_schema and "ok" in tool.output_schema["required"], tool.output_schema
        # Success and error results both conform: oneOf the two shapes, discriminated by ok.
        assert [b["properties"]["ok"]["const"] for b in tool.output_schema["oneOf"]] == [True, False], tool.name
        assert tool.annotations.open_world_hint is False, tool.annotations
    assert tools["read"].annotations.read_only_hint is True
    assert tools["edit"].annotations.read_only_hint is False
    assert tools["edit"].annotations.destructive_hint is True
    assert tools["edit"].annotations.idempotent_hint is False
    assert tools["write"].annotations.destructive_hint is True
    assert tools["write"].annotations.idempotent_hint is True
    assert tools["edit"].input_schema["required"] == ["path", "edits"]
    assert tools["write"].input_schema["required"] == ["path", "content"]
    assert tools["write"].input_schema["properties"]["lineEnding"]["enum"] == ["lf", "crlf", "cr"]


async def check_read_crlf_bom(c: Checks, _: Any) -> None:
    data = b"\xef\xbb\xbffn main() {\r\n    let x = 1;   \r\n}\r\n"
    c.put("src/main.rs", data)
    text, r = await c.ok("read", {"path": "src/main.rs"})
    assert "\r" not in text and "\ufeff" not in text, repr(text)
    assert "1\tfn main() {\n2\t    let x = 1;   \n3\t}\n" in text, repr(text)
    assert r["hash"] == sha256(data) and r["hash"] in text, r
    assert (r["encoding"], r["bom"], r["lineEnding"]) == ("utf-8-bom", True, "crlf"), r
    assert (r["totalLines"], r["startLine"], r["endLine"]) == (3, 1, 3), r
    assert "nextLine" not in r, r
    assert c.bytes_of("src/main.rs") == data


async def check_read_mixed_and_lone_cr(c: Checks, _: Any) -> None:
    data = b"a\r\nb\rc\nd"
    c.put("mixed.txt", data)
    text, r = await c.ok("read", {"file_path": "mixed.txt"})
    assert text.endswith("1\ta\n2\tb\n3\tc\n4\td\n"), repr(text)
    assert (r["lineEnding"], r["totalLines"]) == ("mixed", 4), r


async def check_read_utf16_and_invalid_utf8(c: Checks, _: Any) -> None:
    c.put("utf16.txt", b"\xff\xfe" + "h\u00e9llo\r\nw\u00f6rld\r\n".encode("utf-16-le"))
    text, r = await c.ok("read", {"path": "utf16.txt"})
    assert "1\th\u00e9llo\n2\tw\u00f6rld\n" in text, repr(text)
    assert (r["encoding"], r["bom"], r["lineEnding"]) == ("utf-16le", True, "crlf"), r
    latin1 = b"caf\xe9 = 1\nok\n"
    c.put("latin1.txt", latin1)
    text, r = await c.ok("read", {"path": "latin1.txt"})
    assert "1\tcaf\ufffd = 1\n" in text, repr(text)
    assert "not valid UTF-8" in text, text
    assert c.bytes_of("latin1.txt") == latin1


async def check_read_paging_and_ranges(c: Checks, _: Any) -> None:
    data = "".join(f"line {n}\n" for n in range(1, 2501)).encode()
    c.put("long.txt", data)
    text, r = await c.ok("read", {"path": "long.txt"})
    assert (r["startLine"], r["endLine"], r["nextLine"], r["totalLines"]) == (1, 2000, 2001, 2500), r
    assert "call read with startLine 2001" in text, text[-300:]
    assert "2000\tline 2000\n" in text and "2001\tline" not in text
    text, r = await c.ok("read", {"path": "long.txt", "startLine": 2001})
    assert (r["startLine"], r["endLine"], "nextLine" in r) == (2001, 2500, False), r
    text, r = await c.ok("read", {"path": "long.txt", "startLine": 10, "endLine": 12})
    assert text.splitlines()[1:] == ["10\tline 10", "11\tline 11", "12\tline 12"], text
    assert "nextLine" not in r
    text, r = await c.ok("read", {"path": "long.txt", "offset": 5, "limit": 2})
    assert (r["startLine"], r["endLine"], r["nextLine"]) == (5, 6, 7), r
    c.put("wide.txt", b"x" * 5000 + b"\nshort\n")
    text, r = await c.ok("read", {"path": "wide.txt"})
    assert r["cutLines"] == [1], r
    assert "3000 more characters not shown" in text, text[-400:]
    await c.fails("read", {"path": "long.txt", "startLine": 2501}, "invalid_input")
    c.put("empty.txt", b"")
    text, r = await c.ok("read", {"path": "empty.txt"})
    assert (r["totalLines"], r["endLine"], r["lineEnding"]) == (0, 0, "none"), r


async def check_read_errors(c: Checks, _: Any) -> None:
    c.put("bin.dat", b"\x7fELF\x00\x01\x02\x00")
    err = await c.fails("read", {"path": "bin.dat"}, "binary_file", untouched="bin.dat")
    assert "bin.dat" in err["message"]
    await c.fails("read", {"path": "missing.txt"}, "file_not_found")
    (c.root / "adir").mkdir(exist_ok=True)
    await c.fails("read", {"path": "adir"}, "not_a_file")
    await c.fails("read", {"path": "../outside.txt"}, "outside_root")
    await c.fails("read", {"path": "/etc/hostname"}, "outside_root")
    await c.fails("read", {}, "invalid_input")
    await c.fails("read", {"path": "long.txt", "limit": "many"}, "invalid_input")
    # What the input schema forbids (minimum 1) is refused, not run.
    await c.fails("read", {"path": "long.txt", "startLine": 0}, "invalid_input", "long.txt")


async def check_edit_exact(c: Checks, _: Any) -> None:
    data = b"fn main() {\r\n    let greeting = \"hello\";\r\n    println!(\"{}\", greeting);\r\n}\r\n"
    c.put("exact.rs", data)
    _, read = await c.ok("read", {"path": "exact.rs"})
    text, r = await c.ok(
        "edit",
        {
            "path": "exact.rs",
            "edits": [{"oldText": '    let greeting = "hello";', "newText": '    let greeting = "hi";'}],
            "expectedHash": read["hash"],
        },
    )
    expected = data.replace(b'"hello"', b'"hi"')
    assert c.bytes_of("exact.rs") == expected, c.bytes_of("exact.rs")
    assert r["edits"][0]["strategy"] == "exact" and r["edits"][0]["startLine"] == 2, r
    assert r["hashBefore"] == read["hash"] and r["hashAfter"] == sha256(expected), r
    assert "Edited exact.rs: 1 edit applied." in text, text
    assert '-2     let greeting = "hello";' in r["diff"] and "\r" in r["patch"], r


async def check_edit_fuzzy(c: Checks, _: Any) -> None:
    # Smart quotes, an em dash, a no-break space and trailing spaces the model does not reproduce.
    data = "const label = \u201cred \u2014 blue\u201d;\nlet\u00a0x = 1;   \nreturn x;\n".encode()
    c.put("fuzzy.ts", data)
    text, r = await c.ok(
        "edit",
        {"path": "fuzzy.ts", "oldText": "let x = 1;\nreturn x;", "newText": "let x = 2;\nreturn x;"},
    )
    expected = "const label = \u201cred \u2014 blue\u201d;\nlet\u00a0x = 2;   \nreturn x;\n".encode()
    assert c.bytes_of("fuzzy.ts") == expected, c.bytes_of("fuzzy.ts")
    assert r["edits"][0]["strategy"] == "unicode", r
    assert r["edits"][0]["normalized"], r
    assert "matched unicode" in text, text
    text, r = await c.ok(
        "edit",
        {
            "path": "fuzzy.ts",
            "old_string": 'const label = "red - blue";',
            "new_string": 'const label = "red - green";',
        },
    )
    expected = expected.replace("blue".encode(), b"green")
    assert c.bytes_of("fuzzy.ts") == expected, c.bytes_of("fuzzy.ts")


async def check_edit_errors(c: Checks, _: Any) -> None:
    data = b"x = 1\ny = 2\nx = 1\n"
    c.put("dup.txt", data)
    err = await c.fails("edit", {"path": "dup.txt", "oldText": "x = 1", "newText": "x = 3"}, "ambiguous", "dup.txt")
    assert err["lines"] == [1, 3], err
    await c.fails("edit", {"path": "dup.txt", "oldText": "z = 9", "newText": "z = 8"}, "not_found", "dup.txt")
    await c.fails("edit", {"path": "dup.txt", "oldText": "y = 2", "newText": "y = 2"}, "no_change", "dup.txt")
    await c.fails("edit", {"path": "dup.txt", "oldText": "", "newText": "a"}, "empty_old_text", "dup.txt")
    await c.fails(
        "edit",
        {"path": "dup.txt", "edits": [{"oldText": "y = 2\nx", "newText": "a"}, {"oldText": "2\nx = 1", "newText": "b"}]},
        "overlap",
        "dup.txt",
    )
    await c.fails(
        "edit",
        {"path": "dup.txt", "oldText": "y = 2", "newText": "y = 5", "expectedHash": "0" * 64},
        "stale",
        "dup.txt",
    )
    await c.fails("edit", {"path": "dup.txt"}, "invalid_input", "dup.txt")
    await c.fails("edit", {"path": "dup.txt", "edits": "not json"}, "invalid_input", "dup.txt")
    await c.fails("edit", {"path": "nope.txt", "oldText": "a", "newText": "b"}, "file_not_found")
    await c.fails("edit", {"path": "../dup.txt", "oldText": "a", "newText": "b"}, "outside_root")
    c.put("bin2.dat", b"ab\x00cd")
    await c.fails("edit", {"path": "bin2.dat", "oldText": "ab", "newText": "xy"}, "binary_file", "bin2.dat")
    # A dry run writes nothing.
    _, r = await c.ok("edit", {"path": "dup.txt", "oldText": "y = 2", "newText": "y = 5", "dryRun": True})
    assert r["dryRun"] is True and c.bytes_of("dup.txt") == data


async def check_write_new(c: Checks, _: Any) -> None:
    text, r = await c.ok("write", {"path": "new/deep/file.py", "content": "def f():\n    return 1\n"})
    assert c.bytes_of("new/deep/file.py") == b"def f():\n    return 1\n"
    assert (r["created"], r["hashBefore"], r["encoding"], r["lineEnding"]) == (True, None, "utf-8", "lf"), r
    assert r["hashAfter"] == sha256(b"def f():\n    return 1\n"), r
    assert text.startswith("Created new/deep/file.py: 2 lines"), text
    _, r = await c.ok(
        "write",
        {"path": "win.txt", "content": "a\nb\n", "lineEnding": "crlf", "encoding": "utf-16le"},
    )
    assert c.bytes_of("win.txt") == b"\xff\xfe" + "a\r\nb\r\n".encode("utf-16-le"), c.bytes_of("win.txt")
    _, r = await c.ok("write", {"path": "dry.txt", "content": "x", "dryRun": True})
    assert r["created"] and not (c.root / "dry.txt").exists()


async def check_write_overwrite_keeps_style(c: Checks, _: Any) -> None:
    data = b"\xef\xbb\xbfone\r\ntwo\r\nthree\r\n"
    c.put("keep.txt", data)
    _, read = await c.ok("read", {"path": "keep.txt"})
    text, r = await c.ok(
        "write", {"path": "keep.txt", "content": "one\n2\nthree\nfour\n", "expectedHash": read["hash"]}
    )
    expected = b"\xef\xbb\xbfone\r\n2\r\nthree\r\nfour\r\n"
    assert c.bytes_of("keep.txt") == expected, c.bytes_of("keep.txt")
    assert (r["created"], r["hashBefore"], r["hashAfter"]) == (False, read["hash"], sha256(expected)), r
    assert (r["encoding"], r["bom"], r["lineEnding"]) == ("utf-8-bom", True, "crlf"), r
    assert "-2 two" in r["diff"] and "+2 2" in r["diff"] and "+4 four" in r["diff"], r["diff"]
    assert "kept from the file" in text, text
    assert r["patch"].startswith("--- a/keep.txt\n+++ b/keep.txt\n"), r["patch"]
    # Writing the same content again writes nothing.
    text, r = await c.ok("write", {"path": "keep.txt", "content": "one\n2\nthree\nfour\n"})
    assert "nothing was written" in text and r["hashBefore"] == r["hashAfter"], text
    # Undo puts back what the write replaced, byte for byte.
    _, r = await c.ok("undo", {"path": "keep.txt"})
    assert c.bytes_of("keep.txt") == data, c.bytes_of("keep.txt")
    await c.fails("undo", {"path": "keep.txt"}, "no_undo", "keep.txt")


async def check_write_errors(c: Checks, _: Any) -> None:
    data = b"keep me\n"
    c.put("w.txt", data)
    await c.fails("write", {"path": "w.txt", "content": "new\n", "expectedHash": "f" * 64}, "stale", "w.txt")
    await c.fails("write", {"path": "gone.txt", "content": "x", "expectedHash": "f" * 64}, "stale")
    assert not (c.root / "gone.txt").exists()
    await c.fails("write", {"path": "w.txt", "content": "x", "lineEnding": "native"}, "invalid_input", "w.txt")
    await c.fails("write", {"path": "w.txt"}, "invalid_input", "w.txt")
    await c.fails("write", {"path": "w.txt", "content": "a\u0000b"}, "invalid_input", "w.txt")
    await c.fails("write", {"path": "../escape.txt", "content": "x"}, "outside_root")
    assert not (c.root.parent / "escape.txt").exists()
    await c.fails("write", {"path": "bin.dat", "content": "text"}, "binary_file", "bin.dat")
    await c.fails("write", {"path": "adir", "content": "x"}, "not_a_file")


async def check_apply_patch(c: Checks, _: Any) -> None:
    # Two files, one CRLF with typographic quotes: all applied, each byte kept where not targeted.
    a = b"def greet():\r\n    return \xe2\x80\x9chello\xe2\x80\x9d   \r\n"
    b = b"x = 1\ny = 2\n"
    c.put("p/a.py", a)
    c.put("p/b.py", b)
    patch = (
        "*** Begin Patch\n*** Update File: p/a.py\n@@ def greet():\n-    return \"hello\"\n+    return \"hello, world\"\n"
        "*** Update File: p/b.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** End Patch\n"
    )
    text, r = await c.ok("apply_patch", {"patch": patch})
    assert c.bytes_of("p/a.py") == a.replace(b"hello", b"hello, world"), c.bytes_of("p/a.py")
    assert c.bytes_of("p/b.py") == b"x = 1\ny = 3\n", c.bytes_of("p/b.py")
    assert [f["path"] for f in r["files"]] == ["p/a.py", "p/b.py"], r
    # A patch whose second file fails changes neither.
    bad = patch.replace("y = 2", "y = 99").replace("hello, world", "bye")
    before = (c.bytes_of("p/a.py"), c.bytes_of("p/b.py"))
    await c.fails("apply_patch", {"patch": bad}, "not_found")
    assert (c.bytes_of("p/a.py"), c.bytes_of("p/b.py")) == before


async def check_text_editor(c: Checks, _: Any) -> None:
    # Anthropic's text-editor commands on a CRLF file with a BOM: each result conforms to the
    # tool's outputSchema (the client validates it), and the bytes stay the file's.
    data = b"\xef\xbb\xbfdef f():\r\n    return \xe2\x80\x9chi\xe2\x80\x9d   \r\n"
    c.put("te/a.py", data)
    text, r = await c.ok("text_editor", {"command": "view", "path": "te/a.py"})
    assert text == "Here's the result of running `cat -n` on te/a.py:\n     1\tdef f():\n     2\t    return \u201chi\u201d   \n", repr(text)
    assert (r["command"], r["lineEnding"], r["bom"]) == ("view", "crlf", True), r
    text, r = await c.ok("text_editor", {"command": "str_replace", "path": "te/a.py", "old_str": 'return "hi"', "new_str": 'return "hello"'})
    assert text.startswith("The file te/a.py has been edited."), text
    assert c.bytes_of("te/a.py") == data.replace(b"hi", b"hello"), c.bytes_of("te/a.py")
    text, r = await c.ok("text_editor", {"command": "insert", "path": "te/a.py", "insert_line": 1, "insert_text": "    pass"})
    assert c.bytes_of("te/a.py") == data.replace(b"hi", b"hello").replace(b"f():\r\n", b"f():\r\n    pass\r\n")
    text, r = await c.ok("text_editor", {"command": "view", "path": "te"})
    assert r["entries"] == ["a.py"], r
    await c.ok("text_editor", {"command": "undo_edit", "path": "te/a.py"})
    assert c.bytes_of("te/a.py") == data.replace(b"hi", b"hello")
    await c.fails("text_editor", {"command": "create", "path": "te/a.py", "file_text": "x"}, "invalid_input", "te/a.py")
    await c.fails("text_editor", {"command": "str_replace", "path": "te/a.py", "old_str": "nope"}, "not_found", "te/a.py")


async def check_protocol_errors(c: Checks, _: Any) -> None:
    try:
        await c.session.call_tool("delete_everything", {"path": "x"})
    except MCPError as e:
        assert e.code == -32602, e
        assert "unknown tool" in e.message, e.message
    else:
        raise AssertionError("an unknown tool must be a protocol error")


CHECKS: list[Callable[[Checks, Any], Awaitable[None]]] = [
    check_initialize,
    check_list_tools,
    check_read_crlf_bom,
    check_read_mixed_and_lone_cr,
    check_read_utf16_and_invalid_utf8,
    check_read_paging_and_ranges,
    check_read_errors,
    check_edit_exact,
    check_edit_fuzzy,
    check_edit_errors,
    check_write_new,
    check_write_overwrite_keeps_style,
    check_write_errors,
    check_apply_patch,
    check_text_editor,
    check_protocol_errors,
]


async def run(server: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "workspace"
        root.mkdir()
        (Path(tmp) / "outside.txt").write_text("outside the root\n")
        log_path = Path(tmp) / "server.log"
        params = StdioServerParameters(command=server, args=["mcp", "--root", str(root)], cwd=tmp)
        passed = failed = 0
        with open(log_path, "w") as log:
            async with stdio_client(params, errlog=log) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    checks = Checks(session, root)
                    for check in CHECKS:
                        try:
                            await check(checks, init)
                        except Exception:  # noqa: BLE001 - every failure is reported, then counted
                            failed += 1
                            print(f"FAIL {check.__name__}")
                            traceback.print_exc(file=sys.stdout)
                        else:
                            passed += 1
                            print(f"ok   {check.__name__}")
        log_text = log_path.read_text()
        # Logs go to stderr, one line per call.
        if "surgical mcp: edit exact.rs: ok" not in log_text:
            failed += 1
            print(f"FAIL server log on stderr:\n{log_text}")
        else:
            passed += 1
            print("ok   server_logs_on_stderr")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="path of the surgical binary (run as `surgical mcp`)")
    args = parser.parse_args()
    server = os.path.abspath(args.server)
    return asyncio.run(run(server))


if __name__ == "__main__":
    sys.exit(main())
