"""Position identifiers found in the real files under ``data/real`` (test helper).

* :func:`gnubg_boards`: every board in GNU Backgammon's text exports (``gnubg_txt``), with
  the Position ID, Match ID, the board lines and gnubg's pip counts;
* :func:`xg_exports`: every XGID in eXtreme Gammon's exports (``xg_txt``) with XG's pips;
* :func:`bgblitz_exports`: BGBlitz's Position-ID, Match-ID and XGID of the same position.

The files (copied byte for byte from ``../shared/data/real``, see ``data/SOURCES.md``) are
read, never changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REAL = Path(__file__).resolve().parents[1] / "data" / "real"

_NAME_SUFFIX = re.compile(r" \(Cube: \d+\)$")
_PIPS_XG = re.compile(r"X: (\d+)\s+O: (\d+) X-O")


@dataclass(frozen=True)
class GnubgBoard:
    """One board of a gnubg text export."""

    source: str
    header: str
    """The ``Move number N:  Name to play 51`` line above the board."""
    position_id: str
    match_id: str
    lines: tuple[str, ...]
    """The 16 lines from ``GNU Backgammon  Position ID:`` to ``Pip counts: ...``."""
    names: tuple[str, str]
    """Names of players 0 (O) and 1 (X)."""
    match_length: int
    pips: tuple[int, int]
    """gnubg's pip counts of players 0 (O) and 1 (X)."""


def gnubg_boards() -> list[GnubgBoard]:
    """All boards of ``gnubg_txt/*.txt``, in file order."""
    found = []
    for path in sorted((REAL / "gnubg_txt").glob("*.txt")):
        lines = path.read_text(encoding="utf-8").split("\n")
        length = int(re.search(r"match to (\d+) points", lines[0]).group(1))  # type: ignore[union-attr]
        names: tuple[str, str] | None = None
        header = ""
        for i, line in enumerate(lines):
            if line.startswith("Move number"):
                header = line
            if not line.startswith(" GNU Backgammon  Position ID:"):
                continue
            block = tuple(lines[i : i + 16])
            if names is None:
                names = (
                    _NAME_SUFFIX.sub("", block[2][52:]),
                    _NAME_SUFFIX.sub("", block[14][52:]),
                )
            pips = re.fullmatch(r"Pip counts: O (\d+), X (\d+)", block[15])
            assert pips is not None, block[15]
            found.append(
                GnubgBoard(
                    source=path.name,
                    header=header,
                    position_id=line.split(":")[1].strip(),
                    match_id=block[1].split(":")[1].strip(),
                    lines=block,
                    names=names,
                    match_length=length,
                    pips=(int(pips.group(1)), int(pips.group(2))),
                )
            )
    return found


def xg_exports() -> list[tuple[str, str, tuple[int, int]]]:
    """``(file name, XGID, (pips X, pips O))`` for every ``xg_txt`` file."""
    found = []
    for path in sorted((REAL / "xg_txt").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        xgid = re.search(r"XGID=\S+", text)
        pips = _PIPS_XG.search(text)
        assert xgid is not None and pips is not None, path
        found.append((path.name, xgid.group(0), (int(pips.group(1)), int(pips.group(2)))))
    return found


def bgblitz_exports() -> list[tuple[str, str, str, str]]:
    """``(file name, Position-ID, Match-ID, XGID)`` for every ``bgblitz_txt`` file."""
    found = []
    for path in sorted((REAL / "bgblitz_txt").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        ids = re.search(r"Position-ID: (\S+)\s+Match-ID: (\S+)", text)
        xgid = re.search(r"XGID=\S+", text)
        assert ids is not None and xgid is not None, path
        found.append((path.name, ids.group(1), ids.group(2), xgid.group(0)))
    return found
