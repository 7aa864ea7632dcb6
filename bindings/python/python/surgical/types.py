"""The call objects and result objects of ``surgical call`` as typed dicts (see docs/python.md and
the repository's docs on the machine interface); fields are added, never renamed.

Results are plain dicts: these types only describe them. Keys follow the JSON contract
(``camelCase``), as ``surgical call`` prints them.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Union

if sys.version_info >= (3, 11):
    from typing import Literal, NotRequired, TypedDict
else:  # Python 3.9 and 3.10: NotRequired comes from the stub-only typing_extensions.
    from typing import TYPE_CHECKING, Literal, TypedDict

    if TYPE_CHECKING:
        from typing_extensions import NotRequired
    else:
        NotRequired = Optional

Tier = Literal["exact", "trailing_whitespace", "unicode", "indentation", "whitespace_runs", "escapes", "typo",
               "extra_line", "missing_line", "similar"]

#: What a writing call does about syntax errors it would introduce (docs/syntax-check.md).
OnSyntaxError = Literal["report", "refuse", "off"]


class Edit(TypedDict):
    """One replacement: ``oldText`` copied from the file, ``newText`` what it becomes."""

    oldText: str
    newText: str
    replaceAll: NotRequired[bool]


class EditCall(TypedDict):
    path: str
    edits: NotRequired[List[Edit]]
    oldText: NotRequired[str]
    newText: NotRequired[str]
    replaceAll: NotRequired[bool]
    dryRun: NotRequired[bool]
    maxStrategy: NotRequired[Tier]
    expectedHash: NotRequired[str]
    onSyntaxError: NotRequired[OnSyntaxError]


class ReadCall(TypedDict):
    path: str
    startLine: NotRequired[int]
    endLine: NotRequired[int]
    limit: NotRequired[int]


class WriteCall(TypedDict):
    path: str
    content: str
    lineEnding: NotRequired[Literal["lf", "crlf", "cr"]]
    encoding: NotRequired[Literal["utf-8", "utf-8-bom", "utf-16le", "utf-16be"]]
    expectedHash: NotRequired[str]
    dryRun: NotRequired[bool]
    onSyntaxError: NotRequired[OnSyntaxError]


class PatchCall(TypedDict):
    patch: str
    format: NotRequired[Literal["apply_patch", "search_replace", "unified_diff", "auto"]]
    path: NotRequired[str]
    dryRun: NotRequired[bool]
    onSyntaxError: NotRequired[OnSyntaxError]


class ApplySnippetCall(TypedDict):
    path: str
    snippet: str
    instructions: NotRequired[str]
    dryRun: NotRequired[bool]
    expectedHash: NotRequired[str]
    onSyntaxError: NotRequired[OnSyntaxError]


class UndoCall(TypedDict):
    path: str


class TextEditorCall(TypedDict):
    """Anthropic's text-editor input (both versions), as Claude sends it."""

    command: Literal["view", "create", "str_replace", "insert", "undo_edit"]
    path: str
    view_range: NotRequired[List[int]]
    max_characters: NotRequired[int]
    file_text: NotRequired[str]
    old_str: NotRequired[str]
    new_str: NotRequired[str]
    insert_line: NotRequired[int]
    insert_text: NotRequired[str]
    onSyntaxError: NotRequired[OnSyntaxError]


class SyntaxErrorReport(TypedDict):
    """A syntax error the call introduced (1-based lines and columns, in characters)."""

    line: int
    column: int
    endLine: int
    endColumn: int
    message: str


class FileSyntaxErrors(TypedDict):
    path: str
    syntaxErrors: List[SyntaxErrorReport]


class EditReport(TypedDict):
    """Where one edit landed."""

    index: int
    strategy: str
    startLine: int
    endLine: int
    oldStartLine: int
    oldEndLine: int
    occurrences: int
    normalized: NotRequired[List[str]]
    coarseAlignment: NotRequired[bool]


class ToolError(TypedDict):
    code: str
    message: str
    editIndex: NotRequired[int]
    path: NotRequired[str]
    lines: NotRequired[List[int]]
    hunkIndex: NotRequired[int]
    patchLine: NotRequired[int]
    #: ``syntax_error`` refusals: the errors of the file ``path`` names, and apply_patch's per file.
    syntaxErrors: NotRequired[List[SyntaxErrorReport]]
    files: NotRequired[List[FileSyntaxErrors]]


class ErrorResult(TypedDict):
    ok: Literal[False]
    text: str
    error: ToolError


class EditResult(TypedDict):
    ok: Literal[True]
    text: str
    path: str
    diff: str
    patch: str
    firstChangedLine: Optional[int]
    edits: List[EditReport]
    encoding: str
    hashBefore: str
    hashAfter: str
    dryRun: bool
    undoAvailable: bool
    patchTruncated: bool
    command: NotRequired[str]
    #: Errors the edit introduced (empty when none; absent when the file was not checked).
    syntaxErrors: NotRequired[List[SyntaxErrorReport]]
    #: ``checked: LANGUAGE`` or ``skipped: WHY``; absent when ``onSyntaxError`` is ``off``.
    syntaxCheck: NotRequired[str]


#: The result of any tool: ``result["ok"]`` tells which; the other keys are those of
#: ``surgical call`` (read's ``hash``/``totalLines``, write's ``created``, apply_patch's ``files``,
#: text_editor's ``command``, ...).
ToolResult = Dict[str, Any]


class AppliedEdits(TypedDict):
    text: Union[str, bytes]
    diff: str
    patch: str
    edits: List[EditReport]
    firstChangedLine: Optional[int]
    encoding: str


__all__ = [
    "Tier", "Edit", "EditCall", "ReadCall", "WriteCall", "PatchCall", "ApplySnippetCall", "UndoCall",
    "TextEditorCall", "EditReport", "ToolError", "ErrorResult", "EditResult", "ToolResult", "AppliedEdits",
]

