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

__all__ = ["parse_exports", "positions_from", "read_exports", "read_positions"]


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
