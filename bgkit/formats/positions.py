"""Positions from a file of any position export bgkit reads, or from a notation.

:func:`read_positions` gives the positions of an eXtreme Gammon, BGBlitz or GNU
Backgammon position text export or of an eXtreme Gammon position file (``.xgp``),
recognised by content; :func:`positions_from` takes
what a user types on the command line: a position notation (XGID, GNU Backgammon
Position ID with an optional Match ID, FIBS ``board:``) or the path of such a file.
"""

from __future__ import annotations

import os
from pathlib import Path

from bgkit.errors import NotationError
from bgkit.formats import decode_bytes, read_file
from bgkit.formats.annotations import PositionExport
from bgkit.position import Position

__all__ = [
    "NOTATION_FORMATS",
    "POSITION_FORMATS",
    "exports_as",
    "notation_as",
    "parse_exports",
    "positions_from",
    "read_exports",
    "read_positions",
]

POSITION_FORMATS: dict[str, str] = {
    "xgid": "an XGID",
    "gnubg-id": "a GNU Backgammon Position ID (with or without its Match ID)",
    "fibs-board": "a FIBS 'board:' line",
    "xg-text": "an eXtreme Gammon position text export",
    "bgblitz-text": "a BGBlitz position text export",
    "gnubg-text": "a GNU Backgammon text export",
    "xgp": "an eXtreme Gammon position file (.xgp)",
}
"""Every position format bgkit reads, by the name ``bgkit show --from`` and ``bgkit hint
--from`` give it: the notations (:data:`NOTATION_FORMATS`), then the position exports."""

NOTATION_FORMATS: dict[str, str] = {"xgid": "xgid", "gnubg-id": "gnubg", "fibs-board": "fibs"}
"""The notations of :data:`POSITION_FORMATS`, each with :func:`bgkit.notation.sniff`'s name
for it."""


def read_exports(path: str | os.PathLike[str]) -> tuple[PositionExport, ...]:
    """Every position of the export file at ``path``, with what the file says of it (an
    XG position file, ``.xgp``, holds one, with XG's analysis and rollouts of it).

    :raises NotationError: when the file is no position export bgkit knows.
    :raises OSError: when it cannot be read.
    """
    from bgkit.formats.xg import parse_xgp, sniff_xg

    name = str(path)
    data = read_file(path)
    if sniff_xg(data):
        return (parse_xgp(data, source_name=name),)
    return parse_exports(decode_bytes(data, source_name=name), name)


def parse_exports(text: str, name: str | None = None) -> tuple[PositionExport, ...]:
    """Every position of a position export's text (see :func:`read_exports`); ``name``
    names it in messages.

    :raises NotationError: when the text is no position export bgkit knows.
    """
    from bgkit.formats.bgblitz_text import parse_bgblitz_text, sniff_bgblitz_text
    from bgkit.formats.gnubg_text import parse_gnubg_text, sniff_gnubg_text
    from bgkit.formats.xg_text import parse_xg_text, sniff_xg_text

    if sniff_gnubg_text(text):
        return parse_gnubg_text(text, source_name=name)
    if sniff_xg_text(text):
        return (parse_xg_text(text, source_name=name),)
    if sniff_bgblitz_text(text):
        return (parse_bgblitz_text(text, source_name=name),)
    raise NotationError(
        "not a position export bgkit can read (eXtreme Gammon, BGBlitz or GNU Backgammon"
        " text, or an eXtreme Gammon .xgp)",
        text[:200],
        0,
        source_name=name,
    )


def read_positions(path: str | os.PathLike[str]) -> tuple[Position, ...]:
    """The positions of the export file at ``path`` (see :func:`read_exports`)."""
    return tuple(export.position for export in read_exports(path))


def positions_from(argument: str) -> tuple[Position, ...]:
    """The position a notation names, or the positions of the export file it names.

    A text that is the path of an existing file is read as an export; anything else as
    a notation (:meth:`Position.parse`).

    >>> [p.xgid() for p in positions_from("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")]
    ['XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10']

    :raises NotationError: when it is neither.
    """
    if "\n" not in argument and Path(argument).is_file():
        return read_positions(argument)
    return (Position.parse(argument),)


def notation_as(text: str, fmt: str) -> Position:
    """The position of the notation ``text``, read as the notation ``fmt`` (a name of
    :data:`NOTATION_FORMATS`) and no other.

    >>> notation_as("4HPwATDgc/ABMA", "gnubg-id") == notation_as(
    ...     "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10", "xgid")
    True
    >>> notation_as("4HPwATDgc/ABMA", "xgid")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 1:1: not an XGID: it starts with '4HPwATDgc/ABMA'
    ...

    :raises NotationError: when the text is not that notation, or is malformed there.
    :raises InvalidPositionError: when it describes an impossible position.
    """
    from bgkit.notation import parse_position, sniff

    if sniff(text) != NOTATION_FORMATS[fmt]:
        start = len(text) - len(text.lstrip())
        raise NotationError(f"not {POSITION_FORMATS[fmt]}: {_starts(text)}", text, start)
    return parse_position(text)


def exports_as(data: bytes, fmt: str, name: str | None = None) -> tuple[PositionExport, ...]:
    """Every position of the file ``data`` read as the position export ``fmt`` (a name of
    :data:`POSITION_FORMATS` that is no notation) and no other; ``name`` names it in
    messages.

    :raises NotationError: when the data is not that export, or cannot be read as it.
    """
    from bgkit.formats.bgblitz_text import parse_bgblitz_text, sniff_bgblitz_text
    from bgkit.formats.gnubg_text import parse_gnubg_text, sniff_gnubg_text
    from bgkit.formats.xg import parse_xgp, sniff_xg
    from bgkit.formats.xg_text import parse_xg_text, sniff_xg_text

    what = POSITION_FORMATS[fmt]
    if fmt == "xgp":
        if not sniff_xg(data):
            raise NotationError(
                f"not {what}: it starts with {data[:4]!r}, not b'RGMH'", "", 0, source_name=name
            )
        return (parse_xgp(data, source_name=name),)
    text = decode_bytes(data, source_name=name, note=False)
    sniffs = {"gnubg-text": sniff_gnubg_text, "xg-text": sniff_xg_text}
    if sniffs.get(fmt, sniff_bgblitz_text)(text):
        text = decode_bytes(data, source_name=name)  # (its note, when a guess: text only)
        if fmt == "gnubg-text":
            return parse_gnubg_text(text, source_name=name)
        if fmt == "xg-text":
            return (parse_xg_text(text, source_name=name),)
        return (parse_bgblitz_text(text, source_name=name),)
    start = len(text) - len(text.lstrip())
    raise NotationError(f"not {what}: {_starts(text)}", text, start, source_name=name)


def _starts(text: str) -> str:
    """``it starts with '...'``: the first line of ``text`` that is not blank, cut short."""
    head = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not head:
        return "it is empty"
    if "\x00" in text[:1024]:
        return "it is not text"
    return f"it starts with {head if len(head) <= 30 else head[:30] + '...'!r}"
