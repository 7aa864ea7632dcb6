"""Aider's SEARCH/REPLACE blocks, applied by surgical: the whole reply of a model prompted with
Aider's edit format goes in as it is (prose, fences and file names included); every block of
every file applies, or none does.

    python aider_blocks.py reply.md path/to/project
"""

from __future__ import annotations

import sys
from pathlib import Path

import surgical


def apply_reply(reply: str, root: str = ".") -> dict:
    """Applies the SEARCH/REPLACE blocks of a model's reply; returns apply_patch's result."""
    return surgical.apply_patch({"patch": reply, "format": "search_replace"}, root=root)


if __name__ == "__main__":
    result = apply_reply(Path(sys.argv[1]).read_text(), sys.argv[2] if len(sys.argv) > 2 else ".")
    print(result["text"])
    sys.exit(0 if result["ok"] else 1)
