"""The drop-in recipes of examples/, run offline: the Anthropic SDK's client-side tool loop and an
OpenAI function-calling loop (the real SDKs, their HTTP answered in process by a scripted model),
SWE-agent's and OpenHands' str_replace_editor, Aider's SEARCH/REPLACE blocks; and the strict-mode
schemas checked against OpenAI's rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import httpx2 as httpx  # the HTTP library of the anthropic and openai SDKs
import pytest

import surgical

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))

import aider_blocks  # noqa: E402
import anthropic_text_editor  # noqa: E402
import openai_tools  # noqa: E402
from str_replace_editor import str_replace_editor  # noqa: E402


class Scripted:
    """An HTTP transport answering each request with the next scripted JSON body, keeping the
    requests it was sent."""

    def __init__(self, answers: List[Dict[str, Any]]) -> None:
        self.answers = list(answers)
        self.requests: List[Dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content))
        return httpx.Response(200, json=self.answers.pop(0))


def claude(content: List[Dict[str, Any]], stop: str) -> Dict[str, Any]:
    return {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": content, "stop_reason": stop, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def tool_use(id: str, input: Dict[str, Any]) -> Dict[str, Any]:
    return {"type": "tool_use", "id": id, "name": "str_replace_based_edit_tool", "input": input}


def test_the_anthropic_sdk_loop_runs_claudes_tool_use_blocks(tmp_path):
    anthropic = pytest.importorskip("anthropic")
    (tmp_path / "primes.py").write_bytes(b"def is_prime(n)\r\n    return n > 1\r\n")
    script = Scripted([
        claude([tool_use("toolu_1", {"command": "view", "path": "primes.py"})], "tool_use"),
        claude([tool_use("toolu_2", {"command": "str_replace", "path": "primes.py", "old_str": "def is_prime(n)", "new_str": "def is_prime(n):"})], "tool_use"),
        claude([tool_use("toolu_3", {"command": "str_replace", "path": "primes.py", "old_str": "nothing", "new_str": "x"})], "tool_use"),
        claude([{"type": "text", "text": "Fixed the missing colon."}], "end_turn"),
    ])
    client = anthropic.Anthropic(api_key="test", base_url="http://claude.test", http_client=httpx.Client(transport=httpx.MockTransport(script)))
    answer = anthropic_text_editor.run(client, "Fix the syntax error in primes.py", root=str(tmp_path))
    assert answer.content[0].text == "Fixed the missing colon."
    assert (tmp_path / "primes.py").read_bytes() == b"def is_prime(n):\r\n    return n > 1\r\n"
    first = script.requests[0]
    assert first["tools"] == [{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool", "max_characters": 20000}]
    # Each tool_use answered by a tool_result with surgical's text; a failure is is_error.
    results = [r["messages"][-1]["content"][0] for r in script.requests[1:]]
    assert [r["tool_use_id"] for r in results] == ["toolu_1", "toolu_2", "toolu_3"]
    assert results[0]["content"] == "Here's the result of running `cat -n` on primes.py:\n     1\tdef is_prime(n)\n     2\t    return n > 1\n"
    assert results[0]["is_error"] is False
    assert results[1]["content"].startswith("The file primes.py has been edited.")
    assert results[2]["is_error"] is True
    assert "did not appear verbatim in primes.py" in results[2]["content"]


def gpt(message: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-5",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "tool_calls" if "tool_calls" in message else "stop"}],
    }


def function_call(id: str, name: str, arguments: Dict[str, Any]) -> Dict[str, Any]:
    return {"id": id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def test_the_openai_loop_runs_every_tool_with_strict_calls(tmp_path):
    openai = pytest.importorskip("openai")
    (tmp_path / "app.py").write_bytes(b"def fetch_user(id):\n    return db.get(id)   \n")
    # Strict mode: every argument sent, null for those left out.
    edit = {"path": "app.py", "edits": [{"oldText": "def fetch_user(id):", "newText": "def load_user(id):", "replaceAll": None}],
            "dryRun": None, "maxStrategy": None, "expectedHash": None}
    script = Scripted([
        gpt({"content": None, "tool_calls": [function_call("call_1", "read", {"path": "app.py", "startLine": None, "endLine": None, "limit": None})]}),
        gpt({"content": None, "tool_calls": [function_call("call_2", "edit", edit)]}),
        gpt({"content": "Renamed."}),
    ])
    client = openai.OpenAI(api_key="test", base_url="http://gpt.test/v1", http_client=httpx.Client(transport=httpx.MockTransport(script)))
    answer = openai_tools.run(client, "Rename fetch_user to load_user", root=str(tmp_path))
    assert answer.content == "Renamed."
    assert (tmp_path / "app.py").read_bytes() == b"def load_user(id):\n    return db.get(id)   \n"
    sent = script.requests[0]
    assert [t["function"]["name"] for t in sent["tools"]] == list(surgical.TOOLS)
    assert all(t["function"]["strict"] is True for t in sent["tools"])
    tool_messages = [m for m in script.requests[-1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_1", "call_2"]
    assert tool_messages[1]["content"].startswith("Edited app.py: 1 edit applied.")


def check_strict(schema: Dict[str, Any], where: str) -> None:
    """OpenAI's strict-mode rules: every object has additionalProperties false and requires all its
    properties; only the keywords strict mode takes; optional values are nullable."""
    allowed = {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "description", "anyOf"}
    assert set(schema) <= allowed, (where, set(schema) - allowed)
    if schema.get("type") == "object" or "properties" in schema:
        assert schema.get("additionalProperties") is False, where
        assert sorted(schema["required"]) == sorted(schema["properties"]), where
        for name, prop in schema["properties"].items():
            check_strict(prop, f"{where}.{name}")
    if isinstance(schema.get("items"), dict):
        check_strict(schema["items"], f"{where}[]")
    for i, option in enumerate(schema.get("anyOf", [])):
        check_strict(option, f"{where}|{i}")


def test_strict_schemas_follow_openais_rules_and_the_tools_take_their_nulls(tmp_path):
    definitions = surgical.tool_definitions("openai", strict=True)
    assert [d["function"]["name"] for d in definitions] == list(surgical.TOOLS)
    specs = {s["name"]: s for s in surgical.tool_specs()}
    for d in definitions:
        name, parameters = d["function"]["name"], d["function"]["parameters"]
        assert d["function"]["strict"] is True and parameters["type"] == "object"
        check_strict(parameters, name)
        original = specs[name]["input_schema"]
        for prop in parameters["properties"]:
            nullable = "null" in json.dumps(parameters["properties"][prop].get("type", "")) or None in parameters["properties"][prop].get("enum", [])
            assert nullable == (prop not in original.get("required", [])), (name, prop)
    # A strict call of each tool (every optional argument null) runs as the call without them.
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    calls = {
        "read": {"path": "a.txt"},
        "edit": {"path": "a.txt", "edits": [{"oldText": "two", "newText": "2", "replaceAll": None}]},
        "write": {"path": "b.txt", "content": "b\n"},
        "apply_patch": {"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** End Patch\n"},
        "apply_snippet": {"path": "a.txt", "snippet": "1\n2\nthree\n"},
        "undo": {"path": "a.txt"},
        "text_editor": {"command": "view", "path": "a.txt"},
    }
    for d in definitions:
        name = d["function"]["name"]
        call = {prop: None for prop in d["function"]["parameters"]["properties"]}
        call.update(calls[name])
        result = surgical.call(name, call, root=tmp_path)
        assert result["ok"], (name, result["text"])
    # edit, apply_patch and apply_snippet ran; undo took back the snippet.
    assert (tmp_path / "a.txt").read_text() == "1\n2\n"
    responses = surgical.tool_definitions("openai-responses", strict=True)
    assert responses[0]["type"] == "function" and responses[0]["strict"] is True and "parameters" in responses[0]
    anthropic_format = surgical.tool_definitions("anthropic")
    assert anthropic_format[-1]["name"] == "text_editor" and "input_schema" in anthropic_format[-1]


def test_swe_agent_and_openhands_calls_through_str_replace_editor(tmp_path):
    root = tmp_path.resolve()
    target = root / "repo" / "module.py"
    target.parent.mkdir()
    target.write_bytes(b"import os\r\n\r\ndef main():\r\n\tprint('hi')\r\n")
    run = lambda **kw: str_replace_editor(root=str(root), **kw)  # noqa: E731
    out = run(command="view", path=str(target), view_range=[3, -1], enable_linting=False, security_risk="LOW")
    assert out == f"Here's the result of running `cat -n` on {target}:\n     3\tdef main():\n     4\t\tprint('hi')\n"
    out = run(command="str_replace", path=str(target), old_str="\tprint('hi')", new_str="\tprint('hello')")
    assert out.startswith(f"The file {target} has been edited.")
    out = run(command="insert", path=str(target), insert_line=1, new_str="import sys")
    assert target.read_bytes() == b"import os\r\nimport sys\r\n\r\ndef main():\r\n\tprint('hello')\r\n"
    out = run(command="undo_edit", path=str(target))
    assert out.startswith(f"Last edit to {target} undone successfully.")
    out = run(command="create", path=str(target), file_text="x")
    assert out.startswith(f"ERROR:\nFile already exists at: {target}.")
    out = run(command="str_replace", path=str(target), old_str="print", new_str="log")
    assert out.startswith("ERROR:\nNo replacement was performed. Multiple occurrences") is False  # one print
    assert target.read_bytes() == b"import os\r\n\r\ndef main():\r\n\tlog('hello')\r\n"
    listing = run(command="view", path=str(root / "repo"))
    assert listing.splitlines()[1:] == [f"{root}/repo/", f"{root}/repo/module.py"]
    # SWE-agent runs it as a command.
    script = EXAMPLES / "str_replace_editor.py"
    env = {**os.environ, "SURGICAL_ROOT": str(root)}
    done = subprocess.run([sys.executable, str(script), "view", str(target), "--view_range", "1", "2"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"Here's the result of running `cat -n` on {target}:\n     1\timport os\n     2\t\n\n"
    done = subprocess.run([sys.executable, str(script), "str_replace", str(target), "--old_str", "absent", "--new_str", "x"], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "did not appear verbatim" in done.stdout


AIDER_REPLY = """I'll rename the function and update its caller.

src/app.py
```python
<<<<<<< SEARCH
def fetch_user(id):
=======
def load_user(id):
>>>>>>> REPLACE
```

src/main.py
```python
<<<<<<< SEARCH
user = fetch_user(1)
=======
user = load_user(1)
>>>>>>> REPLACE
```
"""


def test_aider_search_replace_blocks_apply_all_or_nothing(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_bytes(b"def fetch_user(id):\r\n    return db[id]\r\n")
    (tmp_path / "src" / "main.py").write_bytes(b"user = fetch_user(1)\n")
    result = aider_blocks.apply_reply(AIDER_REPLY, str(tmp_path))
    assert result["ok"], result["text"]
    assert (tmp_path / "src" / "app.py").read_bytes() == b"def load_user(id):\r\n    return db[id]\r\n"
    assert (tmp_path / "src" / "main.py").read_bytes() == b"user = load_user(1)\n"
    # A block that does not match: no file changes.
    result = aider_blocks.apply_reply(AIDER_REPLY.replace("fetch_user", "load_user").replace("db[id]", "x"), str(tmp_path))
    assert result["ok"] is False
    assert (tmp_path / "src" / "main.py").read_bytes() == b"user = load_user(1)\n"


@pytest.mark.parametrize("doc, heading", [("docs/python.md", "### Claude with the Anthropic SDK"), ("README.md", "### Python agents")])
def test_the_documented_anthropic_loop_runs_as_shown(tmp_path, monkeypatch, doc, heading):
    """The example of docs/python.md and the README's, each executed as it is written: only the
    client's HTTP is answered in process."""
    anthropic = pytest.importorskip("anthropic")
    text = (Path(__file__).resolve().parents[3] / doc).read_text()
    section = text.split(heading, 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "primes.py").write_bytes(b"def is_prime(n)\n    return n > 1\n")
    script = Scripted([
        claude([tool_use("toolu_1", {"command": "str_replace", "path": "primes.py", "old_str": "def is_prime(n)", "new_str": "def is_prime(n):"})], "tool_use"),
        claude([{"type": "text", "text": "Added the missing colon."}], "end_turn"),
    ])
    real = anthropic.Anthropic
    monkeypatch.setattr(anthropic, "Anthropic", lambda: real(api_key="test", base_url="http://claude.test", http_client=httpx.Client(transport=httpx.MockTransport(script))))
    monkeypatch.chdir(tmp_path)
    exec(compile(code, doc, "exec"), {})
    assert (tmp_path / "primes.py").read_bytes() == b"def is_prime(n):\n    return n > 1\n"
    assert script.requests[0]["tools"] == [{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}]
