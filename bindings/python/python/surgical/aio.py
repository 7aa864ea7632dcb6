"""The tools for asyncio: the same functions as :mod:`surgical`, as coroutines.

Each call runs on the event loop's default executor (a thread; the interpreter lock is released
while it works), so the loop keeps running and many calls run at once. Cancelling the awaiting task
cancels the call: one that has not passed its last check before writing stops with every file
untouched (a call already writing completes), and the task's ``CancelledError`` is raised only once
the call has ended.
"""

from __future__ import annotations

import asyncio
import functools
import os
from typing import Any, Mapping, Optional, Union

from ._surgical import Cancellation
from ._surgical import call as _call
from .types import ApplySnippetCall, EditCall, PatchCall, ReadCall, ToolResult, UndoCall, WriteCall

Root = Union[str, "os.PathLike[str]", None]

__all__ = ["call", "edit", "read", "write", "apply_patch", "apply_snippet", "undo", "text_editor"]


async def call(
    tool: str,
    call: Mapping[str, Any],
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    """:func:`surgical.call`, awaited."""
    return await _run(tool, call, root=root, max_file_size=max_file_size, undo=undo, cancellation=cancellation)


async def _run(
    tool: str,
    call: Mapping[str, Any],
    *,
    root: Root = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> ToolResult:
    token = cancellation if cancellation is not None else Cancellation()
    run = functools.partial(_call, tool, call, root=root, max_file_size=max_file_size, undo=undo, cancellation=token)
    future = asyncio.get_running_loop().run_in_executor(None, run)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        token.cancel()
        # The call stops at its next check (or completes the write it began): wait for it, so that
        # nothing of it runs once the cancellation has propagated.
        await asyncio.wait([future])
        raise


async def edit(call: EditCall, **options: Any) -> ToolResult:
    """:func:`surgical.edit`, awaited."""
    return await _run("edit", call, **options)


async def read(call: ReadCall, **options: Any) -> ToolResult:
    """:func:`surgical.read`, awaited."""
    return await _run("read", call, **options)


async def write(call: WriteCall, **options: Any) -> ToolResult:
    """:func:`surgical.write`, awaited."""
    return await _run("write", call, **options)


async def apply_patch(call: PatchCall, **options: Any) -> ToolResult:
    """:func:`surgical.apply_patch`, awaited."""
    return await _run("apply_patch", call, **options)


async def apply_snippet(call: ApplySnippetCall, **options: Any) -> ToolResult:
    """:func:`surgical.apply_snippet`, awaited."""
    return await _run("apply_snippet", call, **options)


async def undo(call: UndoCall, **options: Any) -> ToolResult:
    """:func:`surgical.undo`, awaited."""
    return await _run("undo", call, **options)


async def text_editor(call: Mapping[str, Any], **options: Any) -> ToolResult:
    """:func:`surgical.text_editor`, awaited."""
    return await _run("text_editor", call, **options)
