"""What the parts of :mod:`bgkit.batch` share: the row types, the kinds of a failed
file, the fixed columns, and :class:`FileRows`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

Row: TypeAlias = dict[str, Any]
"""One result row: column name -> value (``None`` for missing)."""

RowFunction: TypeAlias = Callable[[Path], list[Row]]
"""What :func:`map_files` runs: a file's path -> its rows (picklable: a module-level
function or a :func:`functools.partial` of one, for processes)."""

PathArg: TypeAlias = "str | os.PathLike[str] | Iterable[str | os.PathLike[str]]"

UNREADABLE = "unreadable"
"""Documented as :data:`bgkit.batch.UNREADABLE`."""
INTERNAL_ERROR = "internal-error"
"""Documented as :data:`bgkit.batch.INTERNAL_ERROR`."""

_BASE_COLUMNS: dict[str, str] = {"file": "string", "kind": "string", "message": "string"}
_KEY_COLUMNS: dict[str, str] = {"size": "Int64", "mtime_ns": "Int64"}
SETTINGS = "settings"
"""The column of an ``output`` file that says what its rows were made under."""
_FIXED = {**_BASE_COLUMNS, **_KEY_COLUMNS}
"""The columns every batch has, with these dtypes whatever the function's columns."""


@dataclass(frozen=True, slots=True)
class FileRows:
    """The rows of one input file, as :func:`stream_files` yields them."""

    file: str
    """The path as given (as :class:`~pathlib.Path` spells it)."""
    rows: list[Row]
    """At least one row; every row has ``file``, ``kind``, ``message``, ``size``, ``mtime_ns``."""
    reused: bool = False
    """True when the rows come from the output file of an earlier run."""

    @property
    def kind(self) -> str | None:
        """``"unreadable"`` or ``"internal-error"`` for a file that failed, else ``None``."""
        first = self.rows[0].get("kind")
        return first if first in (UNREADABLE, INTERNAL_ERROR) else None
