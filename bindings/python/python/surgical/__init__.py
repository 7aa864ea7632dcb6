"""surgical's edit engine for Python agents.

Every tool takes the call as a plain dict — the JSON object of ``surgical call TOOL`` — and its
options as keywords, and returns the result object of ``surgical call`` as a plain dict::

    import surgical

    result = surgical.edit(
        {"path": "src/app.py", "edits": [{"oldText": "x = 1", "newText": "x = 2"}]},
        root="/path/to/repo",
    )
    if result["ok"]:
        print(result["diff"])
    else:
        print(result["error"]["code"], result["text"])

Tool failures (``not_found``, ``ambiguous``, ``stale``, ...) are results with ``"ok": False``, never
exceptions; exceptions are for misuse of the API (a call that is not JSON, a negative
``max_file_size``: ``TypeError``, ``ValueError``). The interpreter lock is released while a call
works, so threads run calls at once; :mod:`surgical.aio` has the asyncio variants.

Options, for every tool:

- ``root``: the directory relative paths resolve against; paths leading outside it are refused
  (``outside_root``). Default: the working directory.
- ``max_file_size``: refuse files larger than this many bytes (``too_large``). Default: 1 GiB.
- ``undo``: keep the undo journal in ``<root>/.surgical/`` (default True).
- ``cancellation``: a :class:`Cancellation`; once it is cancelled, the call stops before its first
  write with the error ``cancelled``.
"""

from __future__ import annotations

import copy
import os
from typing import Any, Dict, List, Mapping, Optional, Union

from ._surgical import TEXT_EDITOR_ALIASES, TOOLS, Cancellation, EditError, __version__, tool_specs
from ._surgical import apply_edits as _apply_edits
from ._surgical import call as _call
from .types import (
    AppliedEdits,
    ApplySnippetCall,
    EditCall,
    PatchCall,
    ReadCall,
    ToolResult,
    UndoCall,
    WriteCall,
)

__all__ = [
    "TOOLS",
    "TEXT_EDITOR_ALIASES",
    "Cancellation",
    "EditError",
    "__version__",
    "call",
    "edit",
    "read",
    "write",
    "apply_patch",
    "apply_snippet",
    "undo",
    "text_editor",
    "apply_edits",
    "tool_specs",
    "tool_definitions",
    "anthropic_text_editor_tool",
    "strict_schema",
]

Root = Union[str, "os.PathLike[str]", None]


def call(
    tool: str,
    call: Mapping[str, Any],
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Runs tool ``tool`` (one of :data:`TOOLS`, or a name of Anthropic's text-editor tool, see
    :data:`TEXT_EDITOR_ALIASES`) with ``call``; returns its result object. ``ValueError`` for a name
    that is no tool."""
    return _call(tool, call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def edit(
    call: EditCall,
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Replaces text in a file: ``{"path", "edits": [{"oldText", "newText", "replaceAll"?}],
    "dryRun"?, "maxStrategy"?, "expectedHash"?}`` (or a top-level ``oldText``/``newText``; the
    aliases models send, such as ``old_string``/``new_string``, are accepted)."""
    return _call("edit", call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def read(
    call: ReadCall,
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Reads a file with line numbers: ``{"path", "startLine"?, "endLine"?, "limit"?}``."""
    return _call("read", call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def write(
    call: WriteCall,
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Creates or replaces a file: ``{"path", "content", "lineEnding"?, "encoding"?,
    "expectedHash"?, "dryRun"?}``; an existing file keeps its encoding and line endings."""
    return _call("write", call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def apply_patch(
    call: PatchCall,
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Applies a patch to one or more files, all or nothing: ``{"patch", "format"?, "path"?,
    "dryRun"?}``; the patch is an apply_patch envelope, SEARCH/REPLACE blocks (Aider, Cline, Roo)
    or a unified diff."""
    return _call("apply_patch", call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def apply_snippet(
    call: ApplySnippetCall,
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Merges a lazy snippet (changed code, unchanged code behind ``// ... existing code ...``
    markers) into one file: ``{"path", "snippet", "instructions"?, "dryRun"?, "expectedHash"?}``."""
    return _call("apply_snippet", call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def undo(
    call: UndoCall,
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Puts back what a file held before surgical's last change to it: ``{"path"}``."""
    return _call("undo", call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def text_editor(
    call: Mapping[str, Any],
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """Anthropic's text-editor tool: the ``input`` of Claude's ``tool_use`` block as it is
    (``{"command": "view" | "create" | "str_replace" | "insert" | "undo_edit", "path", ...}``), or
    a SWE-agent/OpenHands ``str_replace_editor`` call. The result's ``text`` is what to send back
    as the ``tool_result`` (with ``is_error`` set to ``not result["ok"]``)."""
    return _call("text_editor", call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


def apply_edits(
    content: Union[str, bytes],
    edits: List[Dict[str, Any]],
    *,
    path: Optional[str] = None,
    max_strategy: Optional[str] = None,
) -> AppliedEdits:
    """Runs the edit engine on content you hold; nothing is read or written. ``edits`` as in an edit
    call. Returns ``text`` (the new content: ``str`` for a ``str``, ``bytes`` for ``bytes`` — a BOM,
    UTF-16 or invalid UTF-8 survive only in bytes), ``diff``, ``patch``, ``edits``,
    ``firstChangedLine`` and ``encoding``. Raises :class:`EditError` (with ``code`` and ``error``)
    when the edits cannot be applied."""
    return _apply_edits(content, edits, path=path, max_strategy=max_strategy)


def anthropic_text_editor_tool(
    version: str = "text_editor_20250728", max_characters: Optional[int] = None
) -> Dict[str, Any]:
    """The definition of Anthropic's text-editor tool for a Messages API request's ``tools``:
    ``text_editor_20250728`` (Claude 4 models; ``str_replace_based_edit_tool``, with
    ``max_characters``) or ``text_editor_20250124`` (``str_replace_editor``, with ``undo_edit``).
    Execute its ``tool_use`` blocks with :func:`text_editor`. ``max_characters`` only tells the model
    that views are limited: the host applies it, so pass it in each call too
    (``{**block.input, "max_characters": n}``)."""
    names = {
        "text_editor_20250728": "str_replace_based_edit_tool",
        "text_editor_20250429": "str_replace_based_edit_tool",
        "text_editor_20250124": "str_replace_editor",
    }
    if version not in names:
        raise ValueError(f"unknown text-editor tool version {version!r}; one of {', '.join(names)}")
    tool: Dict[str, Any] = {"type": version, "name": names[version]}
    if max_characters is not None:
        if version == "text_editor_20250124":
            raise ValueError("max_characters needs text_editor_20250728 or later")
        tool["max_characters"] = max_characters
    return tool


def tool_definitions(format: str = "anthropic", *, strict: bool = False) -> List[Dict[str, Any]]:
    """Every tool's definition, ready to pass as a request's ``tools``.

    - ``"anthropic"``: ``{"name", "description", "input_schema"}`` (Messages API).
    - ``"openai"``: ``{"type": "function", "function": {"name", "description", "parameters"}}``
      (Chat Completions); with ``strict=True`` the schemas follow OpenAI's strict mode (see
      :func:`strict_schema`) and each function says ``"strict": true``.
    - ``"openai-responses"``: ``{"type": "function", "name", "description", "parameters",
      "strict"}`` (Responses API).

    A model's strict-mode calls send ``null`` for what it leaves out; every tool takes ``null`` as
    absent.
    """
    specs = tool_specs()
    if format == "anthropic":
        if strict:
            raise ValueError("strict applies to the OpenAI formats")
        return [{"name": s["name"], "description": s["description"], "input_schema": s["input_schema"]} for s in specs]
    if format not in ("openai", "openai-responses"):
        raise ValueError(f"unknown format {format!r}; one of anthropic, openai, openai-responses")
    out = []
    for s in specs:
        parameters = strict_schema(s["input_schema"]) if strict else s["input_schema"]
        function: Dict[str, Any] = {"name": s["name"], "description": s["description"], "parameters": parameters}
        if strict:
            function["strict"] = True
        if format == "openai":
            out.append({"type": "function", "function": function})
        else:
            out.append({"type": "function", **function, "strict": strict})
    return out


# What OpenAI's strict mode takes of a schema; the rest (lengths, bounds, defaults) is left to the
# tool, which checks it and says what is wrong.
_STRICT_KEYS = {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "description", "anyOf"}


def strict_schema(schema: Mapping[str, Any]) -> Dict[str, Any]:
    """``schema`` as OpenAI's strict mode requires it: every object lists all its properties as
    ``required`` and has ``additionalProperties: false``; a property that was optional takes
    ``null`` too (its type becomes ``[type, "null"]``, ``null`` joins its ``enum``); keywords strict
    mode does not take are left out (the tools check those bounds themselves)."""
    return _strict(copy.deepcopy(dict(schema)))


def _strict(node: Dict[str, Any]) -> Dict[str, Any]:
    node = dict(node)
    # Strict mode takes `anyOf` but not `oneOf`; a choice among string constants (how the
    # schemas spell an option's documented values) reads best to a model as one `enum`.
    options = node.pop("oneOf", None) or node.get("anyOf")
    if options and all("const" in option and option.get("type") == "string" for option in options):
        node.pop("anyOf", None)
        node["type"], node["enum"] = "string", [option["const"] for option in options]
    elif options:
        node["anyOf"] = options
    node = {k: v for k, v in node.items() if k in _STRICT_KEYS}
    if "anyOf" in node:
        node["anyOf"] = [_strict(dict(option)) for option in node["anyOf"]]
    if "items" in node and isinstance(node["items"], dict):
        node["items"] = _strict(node["items"])
    if node.get("type") == "object" or "properties" in node:
        properties = node.get("properties", {})
        required = set(node.get("required", []))
        node["properties"] = {
            name: (_strict(dict(prop)) if name in required else _nullable(_strict(dict(prop))))
            for name, prop in properties.items()
        }
        node["required"] = list(properties)
        node["additionalProperties"] = False
    return node


def _nullable(node: Dict[str, Any]) -> Dict[str, Any]:
    kind = node.get("type")
    if isinstance(kind, str):
        node["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        node["type"] = [*kind, "null"]
    elif kind is None and "anyOf" in node:
        node["anyOf"] = [*node["anyOf"], {"type": "null"}]
    if "enum" in node and None not in node["enum"]:
        node["enum"] = [*node["enum"], None]
    return node
