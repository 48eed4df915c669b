"""Read a position in any notation bgkit knows, telling them apart by their shape.

* ``XGID=...`` or a 26-letter board followed by ``:`` is an XGID (:mod:`bgkit.xgid`);
* ``board:...`` is a FIBS board line (:mod:`bgkit.fibs`);
* a 14-character Position ID, alone or with a 12-character Match ID in either order, is a
  GNU Backgammon ID (:mod:`bgkit.gnubgid`); so is any text whose first ``:``-separated part
  has 10-16 characters without spaces, so that a mistyped ID gets a precise message.
  The forms a user copies out of gnubg are GNU Backgammon IDs too: the two IDs with
  gnubg's labels (``Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA``, on one line or
  two, with or without the ``GNU Backgammon`` before it and gnubg's spaces before the
  colon) and the two IDs separated by blanks instead of ``:``.

Once the notation is known, its own parser reads the text, so errors point at the
exact character.

>>> opening = parse_position("4HPwATDgc/ABMA")
>>> opening == parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10")
True
>>> copied = parse_position("Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA")
>>> copied == parse_position("4HPwATDgc/ABMA cAkAAAAAAAAA") == parse_position(
...     "4HPwATDgc/ABMA:cAkAAAAAAAAA")
True
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bgkit.errors import NotationError
from bgkit.fibs import parse_fibs_board
from bgkit.gnubgid import parse_gnubg_id
from bgkit.limits import check_notation
from bgkit.position import Position
from bgkit.xgid import parse_xgid

__all__ = ["parse_position", "sniff"]

_XGID = re.compile(r"\s*(XGID=|[-A-Za-z]{26}\s*:)", re.IGNORECASE)
_FIBS = re.compile(r"\s*board\s*:", re.IGNORECASE)
_GNUBG = re.compile(r"\s*[^:\s]{10,16}\s*(:|$)")
_LABELLED = re.compile(
    r"\s*(?P<head>(?:GNU\s+Backgammon\s+)?Position\s+ID\s*:)\s*(?P<first>\S+)"
    r"(?:\s+(?P<label>Match\s+ID\s*:)\s*\S+)?\s*",
    re.IGNORECASE,
)
_BLANK_SEPARATED = re.compile(r"\s*[A-Za-z0-9+/]{10,16}(?P<gap>\s+)[A-Za-z0-9+/]{10,16}\s*")


def _copied_ids(text: str) -> str | None:
    """A form of the two GNU Backgammon IDs copied out of gnubg, rewritten as ``ID:ID``
    of the same length (labels blanked, the separator a ``:``), so that an error found in
    it has the column of the text as typed; ``None`` when ``text`` is no such form.

    >>> _copied_ids("Position ID: 4HPwATDgc/ABMA Match ID   : cAkAAAAAAAAA")
    '             4HPwATDgc/ABMA :            cAkAAAAAAAAA'
    >>> _copied_ids("4HPwATDgc/ABMA cAkAAAAAAAAA")
    '4HPwATDgc/ABMA:cAkAAAAAAAAA'
    """
    m = _LABELLED.fullmatch(text)
    if m is not None:
        chars = list(text)
        chars[m.start("head") : m.end("head")] = " " * len(m["head"])
        if m["label"] is not None:
            label = ":" + " " * (len(m["label"]) - 1)
            chars[m.start("label") : m.end("label")] = label
        return "".join(chars)
    m = _BLANK_SEPARATED.fullmatch(text)
    if m is not None:
        return text[: m.start("gap")] + ":" + text[m.start("gap") + 1 :]
    return None


def sniff(text: str) -> str | None:
    """The notation ``text`` looks like: ``"xgid"``, ``"fibs"``, ``"gnubg"`` or ``None``.

    Only the start of the text is looked at; the text may still fail to parse.

    >>> sniff("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"), sniff("board:a:b:7")
    ('xgid', 'fibs')
    >>> sniff("cAkAAAAAAAAE:4HPwATDgc/ABMA"), sniff("hello")
    ('gnubg', None)
    """
    if _XGID.match(text):
        return "xgid"
    if _FIBS.match(text):
        return "fibs"
    if _GNUBG.match(text) or _copied_ids(text) is not None:
        return "gnubg"
    return None


_PARSERS: dict[str, Callable[[str], Position]] = {
    "xgid": parse_xgid,
    "fibs": parse_fibs_board,
    "gnubg": parse_gnubg_id,
}


def parse_position(text: str) -> Position:
    """Read an XGID, a FIBS ``board:`` line or a GNU Backgammon Position ID[:Match ID].

    >>> parse_position("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:"
    ...                "-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0").dice
    (6, 2)

    :raises NotationError: when the text is none of these, or is malformed.
    :raises InvalidPositionError: when it describes an impossible position.
    """
    check_notation(text, "position notation")
    kind = sniff(text)
    if kind is None:
        start = len(text) - len(text.lstrip())
        what = "empty text" if not text.strip() else "unknown position notation"
        raise NotationError(
            f"{what}: expected an XGID, a FIBS board: line or a GNU Backgammon Position ID",
            text,
            start,
        )
    copied = _copied_ids(text) if kind == "gnubg" else None
    if copied is None:
        return _PARSERS[kind](text)
    try:
        return parse_gnubg_id(copied)
    except NotationError as err:  # the same place, in the text as typed
        raise NotationError(err.msg, text, err.pos) from None
