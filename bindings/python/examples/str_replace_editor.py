#!/usr/bin/env python3
"""A drop-in `str_replace_editor` for SWE-agent and OpenHands, run by surgical.

As a function (OpenHands' `file_editor`, or any agent that calls the editor in process): replace
`from openhands_aci.editor import file_editor` with
`from str_replace_editor import str_replace_editor as file_editor`.

As a command (SWE-agent's `tools/edit_anthropic/bin/str_replace_editor`, which takes
`<command> <path> [--file_text ...] [--view_range A B] [--old_str ...] [--new_str ...]
[--insert_line N]`): put this file there instead, executable. Paths are absolute inside
$SURGICAL_ROOT (default `/`), as SWE-agent's are.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Optional

import surgical


def str_replace_editor(*, command: str, path: str, root: Optional[str] = None, **params: Any) -> str:
    """Runs one editor command; returns what the agent shows the model: the result's text, or
    `ERROR:` and the message (as OpenHands' file_editor does). Unknown keyword arguments
    (enable_linting, security_risk, ...) are passed along and ignored by the tool."""
    call = {"command": command, "path": str(path), **{k: v for k, v in params.items() if v is not None}}
    result = surgical.text_editor(call, root=root if root is not None else os.environ.get("SURGICAL_ROOT", "/"))
    return result["text"] if result["ok"] else f"ERROR:\n{result['error']['message']}"


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("command")
    parser.add_argument("path")
    parser.add_argument("--file_text")
    parser.add_argument("--view_range", type=int, nargs=2)
    parser.add_argument("--old_str")
    parser.add_argument("--new_str")
    parser.add_argument("--insert_line", type=int)
    args = vars(parser.parse_args(argv))
    call = {k: v for k, v in args.items() if v is not None}
    result = surgical.text_editor(call, root=os.environ.get("SURGICAL_ROOT", "/"))
    print(result["text"] if result["ok"] else result["error"]["message"])
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
