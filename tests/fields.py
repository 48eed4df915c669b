"""Values spelled out field by field, for the tests that compare two readings of a record
(a fast path against its grammar): ``==`` leaves out the fields a dataclass compares
without (places, annotations), so the comparisons go through :func:`every_field`."""

from __future__ import annotations

import dataclasses
from typing import Any


def every_field(value: Any) -> Any:
    """``value`` with every dataclass field spelled out (those left out of ``==`` too)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            tuple((f.name, every_field(getattr(value, f.name))) for f in dataclasses.fields(value)),
        )
    if isinstance(value, tuple | list):
        return tuple(every_field(item) for item in value)
    return repr(value)
