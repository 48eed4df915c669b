"""GNU Backgammon's one-sided bear-off database, read from the file gnubg ships.

``gnubg_os0.bd`` holds, for each of the 54,264 ways to have up to 15 checkers on the six
home points, the chances of bearing them all off in exactly 0, 1, ... 31 rolls (and of
bearing off the first checker, for gammons). gnubg's effective pip count (EPC) comes from
it. This module reads the distribution from the file of the ``gnubg`` package (the same
file the ``gnubg-nn`` package carries) with gnubg's own layout and arithmetic, without
importing either package: importing ``gnubg_nn`` loads its nets, 30-50 ms of a short
analysis's main process for figures a few bytes of the file give.

The file's layout (gnubg's ``bearoff.c``, compressed one-sided database with gammons): a
40-byte header (``gnubg-OS-06-15-1-1-0``: 6 points, 15 checkers, gammons, compressed,
exact); an index of 8 bytes per position (offset of its values in 16-bit words, little
endian; how many non-zero chances and from which roll; the same for the gammon
chances); then the values, each a chance times 65535.
"""

from __future__ import annotations

import array
import importlib.util
import sys
from collections.abc import Sequence
from functools import cache
from math import comb
from pathlib import Path

POINTS = 6
CHECKERS = 15
POSITIONS = comb(POINTS + CHECKERS, POINTS)
"""Positions in the database: 54,264."""
_HEADER = b"gnubg-OS-06-15-1-1-0"
_INDEX = 40
"""Where the index starts (after the header)."""
_ENTRY = 8
"""Bytes of an index entry."""
_FILE = "gnubg_os0.bd"


class _Database:
    """The file's bytes, and where its values start."""

    def __init__(self, data: bytes) -> None:
        if len(data) < _INDEX + _ENTRY * POSITIONS or not data.startswith(_HEADER):
            raise ValueError("not GNU Backgammon's compressed one-sided bear-off database")
        self.data = data
        self.values = _INDEX + _ENTRY * POSITIONS

    def chances(self, index: int) -> tuple[float, ...]:
        """The chances of bearing off in exactly 0 to 31 rolls, as gnubg's float32 figures
        (``value / 65535.0f``)."""
        data = self.data
        at = _INDEX + _ENTRY * index
        offset = int.from_bytes(data[at : at + 4], "little")
        count, first = data[at + 4], data[at + 5]
        start = self.values + 2 * offset
        words = array.array("H", data[start : start + 2 * count])
        if sys.byteorder == "big":  # pragma: no cover (the file is little-endian)
            words.byteswap()
        out = array.array("f", bytes(4 * 32))
        for i, word in enumerate(words):
            out[first + i] = word / 65535.0
        return tuple(out)


@cache
def _database() -> _Database | None:
    """The database of the installed ``gnubg`` (else ``gnubg-nn``) package; ``None`` when
    neither is installed or the file cannot be read."""
    for package in ("gnubg", "gnubg_nn"):
        try:
            spec = importlib.util.find_spec(package)  # (finds it without importing it)
        except (ImportError, ValueError):
            continue
        for folder in (spec.submodule_search_locations or []) if spec is not None else []:
            path = Path(folder) / "data" / _FILE
            try:
                return _Database(path.read_bytes())
            except (OSError, ValueError):
                continue
    return None


def position_index(home: Sequence[int]) -> int:
    """gnubg's index (``PositionBearoff``) of up to 15 checkers on the six home points,
    ``home[0]`` on the 1-point.

    >>> position_index((0, 0, 0, 0, 0, 0)), position_index((1, 0, 0, 0, 0, 0))
    (0, 1)
    """
    if len(home) != POINTS or min(home) < 0 or sum(home) > CHECKERS:
        raise ValueError(f"not a bear-off of up to {CHECKERS} checkers on {POINTS} points")
    # the checkers and the bars between points as a string of bits (PositionBearoff),
    # ranked among those of its length with POINTS bars (PositionF)
    j = POINTS - 1 + sum(home)
    bits = 1 << j
    for n in home[:-1]:
        j -= n + 1
        bits |= 1 << j
    index, n, r = 0, CHECKERS + POINTS, POINTS
    while n != r:
        if bits & (1 << (n - 1)):
            index += comb(n - 1, r)
            r -= 1
        n -= 1
    return index


def bearoff_chances(home: Sequence[int]) -> tuple[float, ...] | None:
    """gnubg's chances of bearing off the checkers ``home`` (on points 1 to 6) in exactly
    0, 1, ... 31 rolls; ``None`` when gnubg's database is not installed."""
    database = _database()
    return None if database is None else database.chances(position_index(home))
