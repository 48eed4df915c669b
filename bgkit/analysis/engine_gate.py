"""The one gate before GNU Backgammon's C code: what reaches the engine is what it supports.

gnubg checks little of what its Python module is handed. A 30,000-point match reaches
``gnubg.cubeinfo`` and crashes the interpreter; a 65- to 27,000-point match gives ``nan``
equities; a cube past its tables gives equities of 1e29; a hypergammon board or a finished
game has no evaluation at all. Every evaluation bgkit asks of gnubg passes :func:`check`
first (:class:`~bgkit.analysis.gnubg.GnubgEvaluator` and :func:`bgkit.hint` call it), which
refuses such a position with one line saying why, as an :class:`EngineLimitError`; and
:func:`finite` refuses a figure that is not a number, so that none is ever printed or
written as JSON.

The bounds, with where each comes from:

==================  =====================  ==============================================
value               gnubg supports          why
==================  =====================  ==============================================
match length        money (0) or 1-64      ``MAXSCORE`` 64: its match equity tables stop
                                           there (measured: ``nan`` from 65 points, a
                                           segmentation fault from 27,682)
cube, match play    1-64                   ``MAXCUBELEVEL`` 7: its gammon-price and MET
                                           arrays have levels 2^0-2^6 (measured: a cube of
                                           128 changes a dead cube's figures, 256 gives 1e8)
cube, money play    1-2^15                 the Match ID bgkit hands gnubg holds 4 bits of
                                           cube exponent
score               what a Match ID holds  15 bits a side
checkers            15 a side              its nets and bear-off databases are for 15
game                being played           a finished or resigned game has no equity
plies               0-4                    bgkit's move filters (gnubg's analysis ones)
                                           stop at 4
==================  =====================  ==============================================

>>> from bgkit.position import Position
>>> check(Position.initial(match_length=64))
>>> check(Position.initial(match_length=65))
Traceback (most recent call last):
...
bgkit.errors.EngineLimitError: a 65-point match: gnubg's match equity tables stop at 64 points
>>> finite(float("nan"), "the equity of 13/11 13/8")
Traceback (most recent call last):
...
bgkit.errors.EngineLimitError: gnubg gave no number for the equity of 13/11 13/8 (nan)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from bgkit.errors import BgkitError, EngineLimitError

if TYPE_CHECKING:
    from bgkit.position import Position

__all__ = [
    "MAX_MATCH_CUBE",
    "MAX_MATCH_LENGTH",
    "MAX_MONEY_CUBE",
    "MAX_PLIES",
    "EngineLimitError",
    "check",
    "check_cube",
    "check_plies",
    "finite",
    "finite_all",
]

MAX_MATCH_LENGTH = 64
"""gnubg's ``MAXSCORE``: the longest match its match equity tables cover."""
MAX_MATCH_CUBE = 64
"""The highest cube gnubg evaluates in match play (``MAXCUBELEVEL`` 7: 2^0-2^6)."""
MAX_MONEY_CUBE = 1 << 15
"""The highest cube a Match ID holds (a 4-bit exponent), in money play."""
MAX_PLIES = 4
"""The deepest search bgkit asks of gnubg (its analysis move filters stop at 4)."""


def check(position: Position, plies: int | None = None) -> None:
    """Refuse a position (and search depth) GNU Backgammon cannot evaluate.

    :raises EngineLimitError: naming the value and gnubg's bound, in one line.
    """
    if plies is not None:
        check_plies(plies)
    if position.checkers != 15:
        raise EngineLimitError(
            f"{position.checkers} checkers a side (hypergammon): gnubg evaluates games"
            " of 15 checkers a side"
        )
    length = position.match_length
    if length > MAX_MATCH_LENGTH:
        raise EngineLimitError(
            f"a {length}-point match: gnubg's match equity tables stop at {MAX_MATCH_LENGTH} points"
        )
    check_cube(position)
    from bgkit.position import GameState

    if position.game_state != GameState.PLAYING:
        raise EngineLimitError(
            f"the game is {position.game_state.name.lower()}: gnubg evaluates a game being played"
        )
    # (what gnubg is handed for its commands): the Match ID's fields, each state once
    state = (
        position.cube,
        position.cube_owner,
        position.turn,
        position.crawford,
        position.doubled,
        position.resigned,
        position.dice,
        position.match_length,
        position.score,
        position.jacoby,
    )
    if state in _WRITABLE:
        return
    try:
        position.match_id()
    except BgkitError as err:
        raise EngineLimitError(f"gnubg cannot be handed this position: {err}") from None
    if len(_WRITABLE) >= 4096:  # (bounded: a session may see many match states)
        _WRITABLE.clear()
    _WRITABLE.add(state)


_WRITABLE: set[tuple[object, ...]] = set()
"""The match states (as :func:`check` keys them) whose Match ID was written: an analysis
checks every position it hands gnubg, and most share a few states."""


def check_cube(position: Position) -> None:
    """Refuse a cube GNU Backgammon's tables do not reach (match play) or its Match ID
    cannot hold (money play).

    :raises EngineLimitError: naming the cube and gnubg's bound, in one line.
    """
    if position.match_length and position.cube > MAX_MATCH_CUBE:
        raise EngineLimitError(
            f"a cube of {position.cube} in a match: gnubg's match play stops at a cube"
            f" of {MAX_MATCH_CUBE}"
        )
    if position.cube > MAX_MONEY_CUBE:
        raise EngineLimitError(
            f"a cube of {position.cube}: gnubg takes a cube of at most {MAX_MONEY_CUBE}"
        )


def check_plies(plies: int) -> None:
    """Refuse a search depth bgkit does not ask of gnubg."""
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_PLIES:
        raise EngineLimitError(
            f"plies must be 0 to {MAX_PLIES} (bgkit's move filters, gnubg's analysis ones,"
            f" stop at {MAX_PLIES}), not {plies!r}"
        )


def finite(value: float, what: str) -> float:
    """``value``, when it is a number (not ``nan``, not infinite).

    :raises EngineLimitError: gnubg gave no number for ``what``.
    """
    if not math.isfinite(value):
        raise EngineLimitError(f"gnubg gave no number for {what} ({value})")
    return value


def finite_all(data: object, what: str) -> None:
    """Refuse ``data`` (numbers, in dicts, lists and tuples, as JSON holds them) when any
    number in it is ``nan`` or infinite.

    :raises EngineLimitError: naming ``what`` and the first such figure's key.
    """
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        key, value = stack.pop()
        if isinstance(value, float):
            finite(value, f"{what} ({key.lstrip('.')})" if key else what)
        elif isinstance(value, dict):
            stack.extend((f"{key}.{k}", v) for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            stack.extend((f"{key}[{i}]", v) for i, v in enumerate(value))
