"""GNU Backgammon (the PyPI ``gnubg`` module) as an oracle for bgkit's notations.

This is a helper for the tests, not a test module. It never uses bgkit to decide what
gnubg should say: it hands gnubg a position through a GNUbgID or an XGID and returns
what gnubg itself prints or computes.

A pending double or resignation cannot be set with an ID (gnubg's ``set gnubgid`` steps
back), so :func:`set_position` sets the position before it and then plays the action
with gnubg's own ``double`` / ``resign`` commands; both players are made human for that,
and put back at the end of the session (:func:`close`).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType

from bgkit import Position
from bgkit.analysis.engine_gate import MAX_MATCH_CUBE
from bgkit.gnubgid import gnubg_id

_gnubg: ModuleType | None = None
_RESIGN = {1: "single", 2: "gammon", 3: "backgammon"}


def capture(fn: Callable[[], object]) -> str:
    """What ``fn`` prints on file descriptor 1 (gnubg writes there, not to ``sys.stdout``)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 1)
        try:
            fn()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read().decode()


def command(text: str) -> str:
    """Run a gnubg command and return what it printed."""
    gnubg = open_session()
    return capture(lambda: gnubg.command(text))


def open_session() -> ModuleType:
    """The configured ``gnubg`` module (imported and set up on first use)."""
    global _gnubg
    if _gnubg is None:
        import gnubg

        _gnubg = gnubg
        settings = (
            "set display off",
            "set sound enable off",
            "set threads 1",
            "set player 0 human",
            "set player 1 human",
        )
        capture(lambda: [gnubg.command(setting) for setting in settings])
    return _gnubg


def close() -> None:
    """Give player 0 back to gnubg, as it is by default (the next session sets up again)."""
    global _gnubg
    if _gnubg is not None:
        command("set player 0 gnubg")
        _gnubg = None


def holds(pos: Position) -> bool:
    """Whether gnubg can be handed ``pos``: in match play its gammon-price and match
    equity tables stop at a cube of :data:`~bgkit.analysis.engine_gate.MAX_MATCH_CUBE`,
    and a larger one makes its C code read past them (``cubeinfo()``, and the current
    position's ID after ``set gnubgid``): a segmentation fault or not, depending on what
    lies there (a worker of ``pytest -n 2`` over ``test_gnubgid.py`` and
    ``test_analysis.py`` crashed in 5 runs of 9)."""
    return not pos.match_length or pos.cube <= MAX_MATCH_CUBE


def set_position(pos: Position) -> bool:
    """Make ``pos`` gnubg's current position, pending double or resignation included.

    Returns whether gnubg accepted the double or resignation, that is whether its state
    changed (it refuses a double of a dead cube, for example).

    :raises ValueError: for a position gnubg cannot be handed (:func:`holds`).
    """
    if not holds(pos):
        raise ValueError(f"gnubg's tables stop at a cube of {MAX_MATCH_CUBE} in a match")
    gnubg = open_session()
    base = replace(pos, doubled=False, resigned=0)
    capture(lambda: gnubg.setgnubgid(gnubg_id(base)))
    if not (pos.doubled or pos.resigned):
        return True
    before = current_id()
    if pos.doubled:
        command("double")
    if pos.resigned:
        command(f"resign {_RESIGN[pos.resigned]}")
    return current_id() != before


def set_xgid(xgid: str) -> None:
    """Let gnubg read an XGID (``set gnubgid`` accepts XGIDs): the caller makes sure gnubg
    :func:`holds` its position."""
    gnubg = open_session()
    capture(lambda: gnubg.setgnubgid(xgid))


def current_id() -> str:
    """gnubg's ``PositionID:MatchID`` of its current position."""
    return str(open_session().gnubgid())


_names: tuple[str, str] | None = None


def names() -> tuple[str, str]:
    """gnubg's names of players 0 and 1 (read from its board once)."""
    global _names
    if _names is None:
        set_position(Position.initial())
        lines = show_board()
        _names = (lines[2][52:], lines[14][52:])
    return _names


def show_board() -> list[str]:
    """The lines of gnubg's ``show board`` for its current position."""
    return command("show board").rstrip("\n").split("\n")


def raw_board() -> str:
    """gnubg's FIBS ``board:`` line for its current position (``set output rawboard``)."""
    command("set output rawboard on")
    try:
        return command("show board").strip()
    finally:
        command("set output rawboard off")
