"""The native module (PyO3); use it through the ``surgical`` package."""

import os
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

__version__: str
TOOLS: Tuple[str, ...]
TEXT_EDITOR_ALIASES: Tuple[str, ...]

class Cancellation:
    """A flag that abandons running calls before they change anything."""

    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

class EditError(Exception):
    """``apply_edits`` could not apply the edits."""

    code: str
    error: Dict[str, Any]

def call(
    tool: str,
    call: Any,
    *,
    root: Union[str, "os.PathLike[str]", None] = None,
    max_file_size: Optional[int] = None,
    undo: bool = True,
    cancellation: Optional[Cancellation] = None,
) -> Dict[str, Any]: ...
def apply_edits(
    content: Union[str, bytes, bytearray],
    edits: List[Mapping[str, Any]],
    *,
    path: Optional[str] = None,
    max_strategy: Optional[str] = None,
) -> Dict[str, Any]: ...
def tool_specs() -> List[Dict[str, Any]]: ...
